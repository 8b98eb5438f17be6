/**
 * Runs the built CLI (dist/, made by `npm test`'s build step) as a user would,
 * capturing its output and exit code.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { cwd?: string; timeout?: number; env?: NodeJS.ProcessEnv; main?: string } = {}): CliResult {
  const { main = MAIN, ...rest } = opts;
  try {
    const stdout = execFileSync(process.execPath, [main, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...rest });
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { status: number | null; stdout: string; stderr: string };
    return { code: e.status ?? -1, stdout: e.stdout, stderr: e.stderr };
  }
}
