/**
 * Faults aimed at lock events (issue 18), on the real interpreter in the
 * deterministic simulation: each trigger fires at its event (the same
 * virtual instant as the history's op of that event, by the event's client),
 * keeps its window's length, records what fired it, and a trigger whose event
 * never comes is a skip that says why.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { History, Op } from '../../core/history/op.js';
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import type { Trigger } from '../../core/generator/fault-window.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { evidenceOf } from '../../core/checkers/lock/evidence.js';
import { testSeed } from '../support/seed.js';
import { simulateRun } from './simulate-run.js';

const base: RunOptions = {
  backend: 'redis',
  resource: 'none',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  timeLimitS: 4,
  clients: 3,
  ttlMs: 500,
  seed: 7,
  holdMs: 200,
  rate: 4,
  intervalMs: 1000,
  durationMs: 1000,
  recoverMs: 500,
  callTimeoutMs: 300,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

/** An upper bound of the main phase's start in the history's time: the clients' connects and ready lines, ms. */
const START_MS = 10;

const window = (trigger: Trigger, extra: Partial<FaultWindow> = {}): FaultWindow =>
  ({ at: 1000, until: 1600, fault: 'client-pause', target: { kind: 'holder' }, trigger, ...extra }) as FaultWindow;

/** The nemesis ops of the run that carry a trigger (started faults), and the first one's start. */
function triggered(h: History, f: string): Op {
  const op = h.find((o) => o.process === 'nemesis' && o.type === 'invoke' && o.f === f && typeof o['trigger'] === 'string');
  expect(op, `a triggered ${f} in ${JSON.stringify(h.filter((o) => o.process === 'nemesis'))}`).toBeDefined();
  return op!;
}

const by = (op: Op): number => op['by'] as number;
const opOf = (h: History, process: number, f: string, type: Op['type'], time: number): Op | undefined =>
  h.find((o) => o.process === process && o.f === f && o.type === type && o.time === time);

describe('faults aimed at lock events, simulated', () => {
  // Each event and the history op that is that event, of the client the fault hit, at the same virtual instant.
  it.each([
    { on: 'acquire', f: 'acquire', type: 'invoke', resource: 'none' },
    { on: 'grant', f: 'acquire', type: 'ok', resource: 'none' },
    { on: 'holder-read', f: 'read', type: 'ok', resource: 'none' },
    { on: 'write', f: 'write', type: 'invoke', resource: 'none' },
    { on: 'mark', f: 'mark', type: 'invoke', resource: 'cas-unique' },
  ] as const)('a pause on $on fires at that event, on its client, for the window length', async ({ on, f, type, resource }) => {
    const run = await simulateRun({ ...base, resource, script: [window({ on, withinMs: 2000 })] });
    const pause = triggered(run.history, 'pause');
    expect(opOf(run.history, by(pause), f, type, pause.time)).toBeDefined();
    expect(pause.time).toBeGreaterThanOrEqual(1000 * 1e6);
    // The main phase starts once every client is ready (a few simulated ms of connecting): waited_ms counts from there.
    expect(Math.abs((pause['waited_ms'] as number) - (pause.time - 1000 * 1e6) / 1e6)).toBeLessThan(START_MS);
    const resume = run.history.find((o) => o.process === 'nemesis' && o.f === 'resume' && o.type === 'invoke')!;
    expect((resume.time - pause.time) / 1e6).toBeCloseTo(600, 0);
    expect(evidenceOf(run.history, [], 1).faults).toMatchObject({ planned: 1, applied: 1, skipped: [] });
  });

  it('holder-read hits the holder between its read and its write: the client begins the write only after the resume', async () => {
    const run = await simulateRun({ ...base, script: [window({ on: 'holder-read', withinMs: 2000 })] });
    const pause = triggered(run.history, 'pause');
    // The runner records the invoke when it sends; `started` is when the (paused) client actually began the write.
    const write = run.history.find((o) => o.process === by(pause) && o.f === 'write' && o.type !== 'invoke' && o.time > pause.time)!;
    const resume = run.history.find((o) => o.process === 'nemesis' && o.f === 'resume' && o.type === 'info')!;
    expect(write['started']).toBeGreaterThanOrEqual(resume.time);
  });

  it("lease-ending fires within leadMs of the holder's lease end, while it still holds", async () => {
    const run = await simulateRun({ ...base, holdMs: 450, script: [window({ on: 'lease-ending', withinMs: 2000, leadMs: 100 })] });
    const pause = triggered(run.history, 'pause');
    const grant = run.history.filter((o) => o.process === by(pause) && o.f === 'acquire' && o.type === 'ok' && o.time <= pause.time).at(-1)!;
    const left = base.ttlMs - (pause.time - grant.time) / 1e6;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(100 + 1e-6);
  });

  it("renew fires at a holder's renewal (grant + a third of its lease, then each third), while it still holds, on etcd", async () => {
    const etcd = { ...base, backend: 'etcd', ttlMs: 600, holdMs: 450 } as const;
    for (const fault of [
      { fault: 'client-pause', target: { kind: 'holder' } },
      { fault: 'partition', target: { kind: 'partition', grudgeKind: 'client-from-servers', victim: { kind: 'holder' } } },
    ] as const) {
      const run = await simulateRun({ ...etcd, nemesis: [fault.fault], script: [window({ on: 'renew', withinMs: 2000 }, fault as Partial<FaultWindow>)] });
      const start = triggered(run.history, fault.fault === 'partition' ? 'start-partition' : 'pause');
      const grant = run.history.filter((o) => o.process === by(start) && o.f === 'acquire' && o.type === 'ok' && o.time <= start.time).at(-1)!;
      const sinceGrantMs = (start.time - grant.time) / 1e6;
      const period = etcd.ttlMs / 3;
      expect(sinceGrantMs).toBeGreaterThanOrEqual(period - 1);
      expect(Math.abs(sinceGrantMs - Math.round(sinceGrantMs / period) * period)).toBeLessThanOrEqual(1);
      const released = run.history.find((o) => o.process === by(start) && o.f === 'release' && o.type === 'invoke' && o.time > grant.time);
      expect(released === undefined || released.time >= start.time).toBe(true);
    }
  });

  it('renew on a client that does not renew (Redis) is a skip that says why', async () => {
    const run = await simulateRun({ ...base, script: [window({ on: 'renew', withinMs: 2000 })] });
    const skip = run.history.filter((o) => o.process === 'nemesis' && o.f === 'pause');
    expect(skip).toHaveLength(1);
    expect(skip[0]!.error).toBe("trigger renew: redis's client does not renew its lease (no renewal to aim at)");
    expect(evidenceOf(run.history, [], 1).faults).toMatchObject({
      applied: 0,
      skipped: [{ fault: 'client-pause', why: "trigger renew: redis's client does not renew its lease (no renewal to aim at)" }],
    });
  });

  it('held fires on a holder, now or at the next grant', async () => {
    const run = await simulateRun({ ...base, script: [window({ on: 'held', withinMs: 2000 })] });
    const pause = triggered(run.history, 'pause');
    const p = by(pause);
    const grant = run.history.filter((o) => o.process === p && o.f === 'acquire' && o.type === 'ok' && o.time <= pause.time).at(-1)!;
    const released = run.history.find((o) => o.process === p && o.f === 'release' && o.type === 'invoke' && o.time > grant.time);
    expect(released === undefined || released.time >= pause.time).toBe(true);
  });

  it('a delay on the lock link during an acquire slows that acquire', async () => {
    const run = await simulateRun({
      ...base,
      nemesis: ['delay'],
      proxies: 'lock',
      callTimeoutMs: 1000,
      script: [window({ on: 'acquire', withinMs: 2000 }, { fault: 'delay', link: 'lock', delayMs: 400, target: { kind: 'acquirer' } })],
    });
    const start = triggered(run.history, 'start-delay');
    const invoke = opOf(run.history, by(start), 'acquire', 'invoke', start.time)!;
    expect(invoke).toBeDefined();
    const done = run.history.find((o) => o.process === invoke.process && o.f === 'acquire' && o.type !== 'invoke' && o.time > invoke.time)!;
    expect((done.time - invoke.time) / 1e6).toBeGreaterThanOrEqual(400);
  });

  it("a delay on the resource link during the holder's write fires at the write", async () => {
    const run = await simulateRun({
      ...base,
      nemesis: ['delay'],
      proxies: 'resource',
      script: [window({ on: 'write', withinMs: 2000 }, { fault: 'delay', link: 'resource', delayMs: 250, target: { kind: 'holder' } })],
    });
    const start = triggered(run.history, 'start-delay');
    const invoke = opOf(run.history, by(start), 'write', 'invoke', start.time)!;
    const done = run.history.find((o) => o.process === invoke.process && o.f === 'write' && o.type !== 'invoke' && o.time > invoke.time)!;
    expect((done.time - invoke.time) / 1e6).toBeGreaterThanOrEqual(250);
  });

  it('a server fault with a trigger fires at the event (right after a grant)', async () => {
    const run = await simulateRun({
      ...base,
      nemesis: ['server-pause'],
      script: [window({ on: 'grant', withinMs: 2000 }, { fault: 'server-pause', target: { kind: 'leader' } })],
    });
    const pause = triggered(run.history, 'pause');
    expect(opOf(run.history, by(pause), 'acquire', 'ok', pause.time)).toBeDefined();
    expect(evidenceOf(run.history, [], 1).faults.applied).toBe(1);
  });

  it("a triggered partition cuts the event's client off, its record a plain grudge with the trigger beside it", async () => {
    const run = await simulateRun({
      ...base,
      nemesis: ['partition'],
      script: [
        window(
          { on: 'held', withinMs: 2000 },
          { fault: 'partition', target: { kind: 'partition', grudgeKind: 'client-from-servers', victim: { kind: 'holder' } } },
        ),
      ],
    });
    const start = triggered(run.history, 'start-partition');
    expect(start['trigger']).toBe('held');
    const grudge = start.value as Record<string, string[]>;
    expect(Object.values(grudge).every((drops) => Array.isArray(drops))).toBe(true);
    expect(Object.keys(grudge)).toContain(`c${(by(start) % base.clients) + 1}`);
  });

  it('a trigger whose event never comes is a skip that says why (no mark without cas-unique)', async () => {
    const run = await simulateRun({ ...base, script: [window({ on: 'mark', withinMs: 700 })] });
    const skip = run.history.filter((o) => o.process === 'nemesis' && o.f === 'pause');
    expect(skip).toHaveLength(1);
    expect(skip[0]!.error).toBe('trigger mark: no mark event within 700 ms');
    expect(evidenceOf(run.history, [], 1).faults).toMatchObject({
      applied: 0,
      skipped: [{ fault: 'client-pause', why: 'trigger mark: no mark event within 700 ms' }],
    });
    const server = await simulateRun({
      ...base,
      nemesis: ['server-pause'],
      script: [window({ on: 'mark', withinMs: 100 }, { fault: 'server-pause', target: { kind: 'leader' } })],
    });
    expect(evidenceOf(server.history, [], 1).faults.skipped).toEqual([{ fault: 'server-pause', why: 'trigger mark: no mark event within 100 ms' }]);
  });

  it("a window aimed at one worker waits for that worker's event", async () => {
    const run = await simulateRun({ ...base, script: [window({ on: 'grant', withinMs: 3000 }, { target: { kind: 'client', worker: 2 } })] });
    const pause = triggered(run.history, 'pause');
    expect(by(pause) % base.clients).toBe(2);
  });

  it('never waits past the main phase', async () => {
    const run = await simulateRun({ ...base, clients: 1, rate: 0.01, script: [window({ on: 'mark', withinMs: 60_000 }, { at: 3500, until: 3900 })] });
    const skip = run.history.find((o) => o.process === 'nemesis' && o.f === 'pause')!;
    expect(skip.time / 1e6).toBeLessThanOrEqual(4000 + START_MS);
    expect(skip.error).toMatch(/^trigger mark: no mark event within 500 ms$/);
  });

  it('triggered plans replay to the identical history', async () => {
    const seed = testSeed('triggers replay', 'test/sim/triggers.test.ts');
    const on = fc.constantFrom('acquire', 'grant', 'holder-read', 'write', 'held') as fc.Arbitrary<Exclude<Trigger['on'], 'lease-ending'>>;
    await fc.assert(
      fc.asyncProperty(on, fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (event, s) => {
        const o = { ...base, seed: s, script: [window({ on: event, withinMs: 1500 })] };
        const [a, b] = [await simulateRun(o), await simulateRun(o)];
        expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
      }),
      { seed, numRuns: 10 },
    );
  }, 60_000);
});
