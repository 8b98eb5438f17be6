/**
 * Test helper: `fencecheck compare` run in-process, its stdout and stderr
 * captured per test (empty at each start) and process.exitCode reset after.
 * Call once at a test file's top level: it registers the hooks.
 */
import { Command } from 'commander';
import { afterEach, beforeEach, vi } from 'vitest';
import { registerCompareCommand } from '../../src/cli/compare-command.js';

export function compareInProcess(): { io: { out: string; err: string }; compare: (...args: string[]) => Promise<number | undefined> } {
  const io = { out: '', err: '' };
  beforeEach(() => {
    io.out = '';
    io.err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((io.out += String(t)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((io.err += String(t)), true));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });
  const compare = async (...args: string[]): Promise<number | undefined> => {
    const program = new Command().exitOverride();
    registerCompareCommand(program);
    await program.parseAsync(['node', 'fencecheck', 'compare', ...args]);
    return process.exitCode as number | undefined;
  };
  return { io, compare };
}
