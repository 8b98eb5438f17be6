/**
 * A spare lock client (runtime/hosts/spare-clients.ts): the real client
 * process (dist/runtime/clients/client-main.js, run here on the loopback, no
 * servers) started with FC_CLIENT_SPARE says nothing and connects to nothing
 * until its configuration arrives as the first line of stdin; then it is any
 * client: its ready line, its requests, its exit. And the spares' registry:
 * one spare per worker and host, taken once, never a dead one, none left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { SpareClients } from '../../runtime/hosts/spare-clients.js';
import type { ClientHost, ClientProcess } from '../../runtime/hosts/client-host.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import { CLIENT_MAIN } from './client-driver.js';

const CONFIG: ClientConfig = {
  client: 1,
  backend: 'redis',
  // Nothing listens on port 1: the client's connection fails, its ready line still comes (best effort).
  lockEndpoints: ['127.0.0.1:1'],
  lockName: 'fencecheck-lock',
  resource: 'none',
  pg: { host: '127.0.0.1', port: 1, user: 'postgres', database: 'postgres' },
  resourceKey: 'counter',
  callTimeoutMs: 300,
  sessionTimeoutMs: 1000,
  checkHold: false,
} as ClientConfig;

function spare(): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const main = join(projectRoot(), CLIENT_MAIN);
  if (!existsSync(main)) throw new Error(`${CLIENT_MAIN} is missing: run \`npm run build\` first`);
  const env: NodeJS.ProcessEnv = { ...process.env, FC_CLIENT_SPARE: 'redis' };
  delete env['FC_CLIENT_CONFIG'];
  const child = spawn(process.execPath, [main], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  return { child, lines, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

const until = async (ok: () => boolean, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (ok()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ok();
};

describe('a spare client process', () => {
  it('waits silently for its configuration, then is ready, answers, and exits on shutdown', async () => {
    const s = spare();
    // Long enough for it to have loaded its library: it must still have said nothing.
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.lines).toEqual([]);
    expect(s.child.exitCode).toBeNull();
    s.child.stdin!.write(`${JSON.stringify(CONFIG)}\n`);
    expect(await until(() => s.lines.length > 0, 10_000)).toBe(true);
    expect(JSON.parse(s.lines[0]!)).toMatchObject({ ready: true, protocol: 1, token: 'monotonic' });
    s.child.stdin!.write(`${JSON.stringify({ id: 1, op: 'shutdown' })}\n`);
    s.child.stdin!.end();
    expect(await s.exited).toBe(0);
  });

  it('exits 254 on a bad configuration line, and when its input ends before one', async () => {
    const bad = spare();
    bad.child.stdin!.write('{"client": "x"}\n');
    expect(await bad.exited).toBe(254);
    expect(bad.lines).toEqual([]);
    const none = spare();
    none.child.stdin!.end();
    expect(await none.exited).toBe(254);
  });
});

/** A stand-in host whose processes run while `alive` says so. */
function standInHost(name: string, firstPid: number): ClientHost & { spawned: ClientProcess[]; stopped: number[] } {
  let pid = firstPid;
  const spawned: ClientProcess[] = [];
  const stopped: number[] = [];
  const host = {
    name,
    spawned,
    stopped,
    spawn: (_argv: readonly string[], opts: { name?: string; env?: Record<string, string> }) => {
      const p = ++pid;
      let alive = true;
      const proc = {
        name: opts.name,
        pid: p,
        identity: { pid: p, comm: 'node', startTime: p },
        running: () => alive,
        stop: async () => void (stopped.push(p), (alive = false)),
        env: opts.env,
        die: () => (alive = false),
      };
      spawned.push(proc as unknown as ClientProcess);
      return proc;
    },
  };
  return host as unknown as ClientHost & { spawned: ClientProcess[]; stopped: number[] };
}

describe('the spares registry', () => {
  it('keeps one spare per worker and host, hands each over once, never a dead one, and stops the rest', async () => {
    const spares = new SpareClients();
    const a = standInHost('c1', 100);
    const b = standInHost('c2', 200);
    spares.prestart(a, 0, ['node', 'client-main.js'], 'etcd', '/');
    spares.prestart(a, 0, ['node', 'client-main.js'], 'etcd', '/');
    spares.prestart(b, 1, ['node', 'client-main.js'], 'etcd', '/');
    spares.prestart(b, 2, ['node', 'client-main.js'], 'etcd', '/');
    expect(a.spawned).toHaveLength(1);
    expect((a.spawned[0] as unknown as { env: Record<string, string> }).env).toEqual({ FC_CLIENT_SPARE: 'etcd' });
    expect(spares.holds(a.spawned[0]!)).toBe(true);
    const taken = spares.take('c1', 0);
    expect(taken?.pid).toBe(a.spawned[0]!.pid);
    // Taken: a run's client now, which the reset ends like any other.
    expect(spares.holds(a.spawned[0]!)).toBe(false);
    expect(spares.take('c1', 0)).toBeUndefined();
    (b.spawned[0] as unknown as { die: () => void }).die();
    expect(spares.take('c2', 1)).toBeUndefined();
    await spares.stopAll();
    expect(b.stopped).toEqual([b.spawned[1]!.pid]);
    expect(spares.take('c2', 2)).toBeUndefined();
  });
});
