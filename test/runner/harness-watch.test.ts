/**
 * A part of the harness that dies mid-run is recorded once, at the moment it is seen, as a nemesis
 * `harness-died` info with its error, and logged; the evidence then counts it as a failed fault. Fake
 * timers: no cluster, no real time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evidenceOf } from '../../core/checkers/lock/evidence.js';
import { Recorder } from '../../runtime/runner/recorder.js';
import { runHarnessParts, watchHarness, type WatchedPart } from '../../runtime/runner/harness-watch.js';

afterEach(() => vi.useRealTimers());

describe('watchHarness', () => {
  it('records each death once, logs it, and the final poll at stop catches a late one', () => {
    vi.useFakeTimers();
    const recorder = new Recorder(undefined);
    const logs: string[] = [];
    let proxyDead: string | undefined;
    let pgDead: string | undefined;
    const parts: WatchedPart[] = [
      { name: 'proxy c3->pg1', died: () => proxyDead },
      { name: 'pg1', died: () => pgDead },
    ];
    const stop = watchHarness(parts, recorder, (l) => logs.push(l), 100);
    vi.advanceTimersByTime(350);
    expect(recorder.ops).toEqual([]);
    proxyDead = 'the delay proxy on c3 to pg1 was killed by SIGKILL mid-run; its log: logs/proxy-c3-pg1.log';
    vi.advanceTimersByTime(1000);
    pgDead = 'the resource server pg1 is no longer running';
    stop();
    vi.advanceTimersByTime(1000);
    expect(recorder.ops.map((o) => [o.process, o.type, o.f, o.value, o.error])).toEqual([
      ['nemesis', 'info', 'harness-died', { part: 'proxy c3->pg1' }, proxyDead],
      ['nemesis', 'info', 'harness-died', { part: 'pg1' }, pgDead],
    ]);
    expect(logs).toEqual([`harness: ${proxyDead}`, `harness: ${pgDead}`]);
    expect(evidenceOf(recorder.ops, [], 0).faults.failed).toEqual([
      { fault: 'harness', error: proxyDead },
      { fault: 'harness', error: pgDead },
    ]);
  });
});

describe('runHarnessParts', () => {
  const server = { running: false, backend: 'postgres', logPath: 'logs/pg1.log' };
  const cluster = { node: () => server } as unknown as Parameters<typeof runHarnessParts>[0];

  it("watches the resource's server, unless the run's faults aim at it (no lock: kill strikes PostgreSQL)", () => {
    expect(runHarnessParts(cluster, new Map(), 'pg1').map((p) => [p.name, p.died()])).toEqual([
      ['pg1', "the resource's server pg1 (postgres) is no longer running mid-run; every access and the final read fail; its log: logs/pg1.log"],
    ]);
    expect(runHarnessParts(cluster, new Map(), 'pg1', true)).toEqual([]);
  });
});
