/**
 * Integration (real servers, root): a harness SIGKILLed while its warm
 * cluster waits between runs, or while the pool resets it, leaves a state
 * file that `fencecheck down` fully reclaims (namespaces, veths, nft tables,
 * server and client processes, data dirs, shared memory). Needs `npm run
 * build` first (the harness runs from dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultStateFile, projectRoot } from '../../runtime/hosts/paths.js';
import { reclaim } from '../../runtime/cluster/reclaim.js';
import { runCommand } from '../../runtime/hosts/run-command.js';
import { StateFile, type ClusterState } from '../../runtime/hosts/state-file.js';
import { cliPath, leftovers, NOTHING_LEFT, withClusterLock } from './helpers.js';

const harnessPath = join(projectRoot(), 'test', 'integration', 'fixtures', 'warm-harness.mjs');
const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-warm-reclaim-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  // Backstop: whatever a failed test left (under the lock: never another process's live cluster).
  await withClusterLock(() => reclaim());
  rmSync(resultsDir, { recursive: true, force: true });
});

/** Start the warm harness and resolve when it prints `line`. */
function harnessAt(
  backend: string,
  mode: 'between' | 'reset',
  line: string,
): { child: ChildProcess; at: Promise<void>; exited: Promise<NodeJS.Signals | number | null> } {
  const child = spawn(process.execPath, [harnessPath, backend, mode, resultsDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const at = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l === line && resolve());
    child.once('exit', (code, signal) => reject(new Error(`harness ended before ${line} (${signal ?? code})`)));
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return { child, at, exited };
}

describe.each([
  ['between runs', 'between', 'BETWEEN'],
  ['during a reset', 'reset', 'RESETTING'],
] as const)('a warm cluster SIGKILLed %s', (_what, mode, line) => {
  it('is reclaimed by `fencecheck down`: nothing left', async () => {
    const h = harnessAt('zookeeper', mode, line);
    await h.at;
    h.child.kill('SIGKILL');
    expect(await h.exited).toBe('SIGKILL');
    const state = StateFile.read(defaultStateFile()) as ClusterState;
    // The servers outlive their harness (a SIGKILL cannot be caught): the state file names them.
    expect(state.processes.map((p) => p.name)).toEqual(expect.arrayContaining(['zk1', 'zk2', 'zk3', 'pg1']));
    const down = await runCommand(process.execPath, [cliPath(), 'down']);
    console.log(`fencecheck down after SIGKILL ${mode}: ${down.stdout}`);
    expect(await withClusterLock(() => leftovers(state.processes))).toEqual(NOTHING_LEFT);
    expect(existsSync(defaultStateFile())).toBe(false);
  }, 120_000);
});
