/**
 * The built CLI as a user starts it, from an integration test: each child's exit code and output, and what a
 * failing test leaves running ended after the file (SIGINT: the command tears its cluster down; then SIGKILL, and
 * the next start reclaims what it left). Only the children this file started, by their own handles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { MAIN } from '../cli/run-cli.js';

export interface CliResult {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** A runner of the built CLI whose unfinished children are interrupted after the file's tests. */
export function cliChildren(): (args: string[]) => Promise<CliResult> {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children)
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGINT');
        await new Promise((r) => setTimeout(r, 5000));
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      }
  });
  return (args) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr, stdout })));
  };
}
