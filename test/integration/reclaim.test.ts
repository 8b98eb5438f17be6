/**
 * Integration (real servers, root): teardown always runs, and what a harness
 * killed with SIGKILL leaves behind, the next `fencecheck down` reclaims in
 * full: afterwards no namespace, veth, nft table or process of the project
 * remains. Needs `npm run build` (the harness and the CLI run from dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStateFile, projectRoot } from '../../runtime/hosts/paths.js';
import { reclaim } from '../../runtime/cluster/reclaim.js';
import { runCommand } from '../../runtime/hosts/run-command.js';
import { StateFile, type ClusterState } from '../../runtime/hosts/state-file.js';
import { cliPath, leftovers, NOTHING_LEFT, pgTemplatesOf, waitFor, withClusterLock } from './helpers.js';

const harnessPath = join(projectRoot(), 'test', 'integration', 'fixtures', 'harness.mjs');
const children: ChildProcess[] = [];

beforeAll(() => {
  cliPath();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  // Backstop: whatever a failed test left (under the lock: never another process's live cluster).
  await withClusterLock(() => reclaim());
});

function startHarness(backends: string, mode = ''): { child: ChildProcess; ready: Promise<void>; exited: Promise<NodeJS.Signals | number | null> } {
  const child = spawn(process.execPath, [harnessPath, backends, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l === 'READY' && resolve());
    child.once('exit', (code, signal) => reject(new Error(`harness ended before READY (${signal ?? code})`)));
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return { child, ready, exited };
}

async function postgresShmSegments(): Promise<number> {
  const out = await runCommand('ipcs', ['-m'], { reject: false });
  return out.stdout.split('\n').filter((l) => /\spostgres\s/.test(l)).length;
}

/** PostgreSQL's POSIX shared memory segments (dynamic shared memory of type posix). */
function postgresDevShm(): string[] {
  return existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((f) => f.startsWith('PostgreSQL.')) : [];
}

async function fencecheckDown(): Promise<{ ms: number; stdout: string }> {
  const t0 = Date.now();
  const r = await runCommand(process.execPath, [cliPath(), 'down']);
  return { ms: Date.now() - t0, stdout: r.stdout };
}

describe('reclaim after SIGKILL', () => {
  it('a harness killed mid-run leaves state that `fencecheck down` fully reclaims', async () => {
    const shmBefore = await postgresShmSegments();
    const devShmBefore = postgresDevShm();
    const h = startHarness('redlock,postgres');
    await h.ready;
    // The running server keeps its dynamic shared memory in its data dir: nothing in /dev/shm for a SIGKILL to leave.
    expect(postgresDevShm().filter((f) => !devShmBefore.includes(f))).toEqual([]);
    const state = StateFile.read(defaultStateFile()) as ClusterState;
    expect(state.processes.map((p) => p.name).sort()).toEqual(['pg1', 'redlock1', 'redlock2', 'redlock3', 'redlock4', 'redlock5', 'sleeper']);
    expect(state.nftTables.length).toBeGreaterThan(0);
    h.child.kill('SIGKILL');
    expect(await h.exited).toBe('SIGKILL');
    // The servers outlive their harness, as intended: a SIGKILL cannot be caught.
    const before = await leftovers(state.processes);
    expect(before.namespaces.length).toBe(8); // switch, 5 redlock, pg1, c1
    expect(before.processes.length).toBeGreaterThanOrEqual(7);

    const down = await fencecheckDown();
    console.log(`fencecheck down after SIGKILL: ${down.ms} ms\n${down.stdout}`);
    expect(await withClusterLock(() => leftovers(state.processes))).toEqual(NOTHING_LEFT);
    expect(existsSync(defaultStateFile())).toBe(false);
    // PostgreSQL was shut down, not killed: no shared memory segment leaked.
    expect(await postgresShmSegments()).toBe(shmBefore);
    expect((await fencecheckDown()).stdout).toContain('nothing to tear down');
  });

  it('PgBouncer and the PostgreSQL behind it, left by a SIGKILLed harness, are reclaimed', async () => {
    const h = startHarness('pgbouncer,pg-advisory');
    await h.ready;
    const state = StateFile.read(defaultStateFile()) as ClusterState;
    expect(state.processes.map((p) => `${p.name}:${p.comm}`).sort()).toEqual(['pgb1:pgbouncer', 'pgl1:postgres', 'sleeper:sleep']);
    // Its PostgreSQL's initdb template is the harness process's, not the cluster's: left by the SIGKILL, swept by down.
    expect(pgTemplatesOf(h.child.pid!)).toHaveLength(1);
    h.child.kill('SIGKILL');
    expect(await h.exited).toBe('SIGKILL');
    expect((await leftovers(state.processes)).processes.length).toBeGreaterThanOrEqual(3);
    expect(pgTemplatesOf(h.child.pid!)).toHaveLength(1);
    await fencecheckDown();
    expect(await withClusterLock(() => leftovers(state.processes, { runDir: state.runDir }))).toEqual(NOTHING_LEFT);
    expect(pgTemplatesOf(h.child.pid!)).toEqual([]);
  });

  it('`fencecheck up` killed while starting is reclaimed too', async () => {
    const up = spawn(process.execPath, [cliPath(), 'up', '--backend', 'all', '--busy-timeout-ms', '90000'], { stdio: 'ignore' });
    children.push(up);
    const state = await waitFor(
      'a half-started cluster',
      async () => {
        const s = StateFile.read(defaultStateFile());
        return s && s.processes.length >= 3 ? s : undefined;
      },
      20_000,
      10,
    );
    up.kill('SIGKILL');
    await new Promise((r) => up.once('exit', r));
    const later = StateFile.read(defaultStateFile()) ?? state;
    await fencecheckDown();
    expect(await withClusterLock(() => leftovers(later.processes))).toEqual(NOTHING_LEFT);
  });
});

describe('reclaim at exit after a crash', () => {
  it('a harness that dies of an uncaught exception leaves nothing: PostgreSQL stopped cleanly, data dirs gone', async () => {
    const h = startHarness('etcd,postgres', 'crash');
    await h.ready;
    const state = StateFile.read(defaultStateFile()) as ClusterState;
    const pg = state.processes.filter((p) => p.comm === 'postgres').map((p) => p.pid);
    expect(pg).toHaveLength(1);
    expect(state.shmDataDirs).toHaveLength(1);
    expect(await h.exited).toBe(1);
    expect(pgTemplatesOf(h.child.pid!)).toEqual([]);
    // The exit-time fallback did everything `down` would have: it finds nothing.
    expect(await withClusterLock(() => leftovers(state.processes, { runDir: state.runDir, shmCreators: pg }))).toEqual(NOTHING_LEFT);
    expect(existsSync(defaultStateFile())).toBe(false);
    expect((await fencecheckDown()).stdout).toContain('nothing to tear down');
  });
});

describe('teardown on signals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the harness tears everything down', async (signal) => {
    const h = startHarness('redlock');
    await h.ready;
    const state = StateFile.read(defaultStateFile()) as ClusterState;
    expect(pgTemplatesOf(h.child.pid!)).toHaveLength(1);
    h.child.kill(signal);
    // The handler tears down, then re-raises the signal so the process ends as the signal intends.
    expect(await h.exited).toBe(signal);
    // The re-raised signal ends it without an 'exit' event: its template went with the teardown.
    expect(pgTemplatesOf(h.child.pid!)).toEqual([]);
    expect(await withClusterLock(() => leftovers(state.processes))).toEqual(NOTHING_LEFT);
    expect(existsSync(defaultStateFile())).toBe(false);
  });
});
