/**
 * Generators replayed together in virtual time (virtual-run.ts): two
 * clients' plans, a nemesis schedule and the phases, with a fake clock. The
 * log is exact: every time below follows from the pinned plans (client 0
 * thinks 340.26, 111.221, 89.506 ms; client 1 thinks 275.845, 59.014,
 * 357.406 ms; both hold 250 ms) and the schedule of seed 42.
 */
import { describe, expect, it } from 'vitest';
import { clientPlan, planPrefix } from '../../workloads/generator/client-plan.js';
import { nemesisSchedule, type NemesisOptions } from '../../workloads/generator/nemesis-schedule.js';
import { planPhases } from '../../workloads/generator/phases.js';
import { virtualRun, type VirtualEvent } from './virtual-run.js';

const SEED = 42;
const planOptions = { workload: 'lock-counter', rate: 2, hold: 250 } as const;
const nemesis: NemesisOptions = { faults: ['client-pause', 'server-pause'], intervalMs: 1000, durationMs: 500, leaseMs: 300, targets: { nodes: ['n1', 'n2', 'n3'] } };

function run(): VirtualEvent[] {
  const plans = [0, 1].map((c) => clientPlan(SEED, c, planOptions));
  return virtualRun(plans, nemesisSchedule(nemesis, SEED, 3000), planPhases({ timeLimitMs: 3000, recoverMs: 1000 }));
}

describe('a run in virtual time', () => {
  it('the plans it replays are the pinned ones', () => {
    expect(planPrefix(clientPlan(SEED, 1, planOptions), 3).map((s) => s.thinkMs)).toEqual([275.845, 59.014, 357.406]);
    expect(nemesisSchedule(nemesis, SEED, 3000)).toEqual([
      { at: 1000, until: 1500, fault: 'server-pause', target: { kind: 'node', node: 'n3' } },
      // Twice the 300 ms lease, cut at the 3 s time limit.
      { at: 2500, until: 3000, fault: 'client-pause', target: { kind: 'holder' } },
    ]);
  });

  it('replays to an exact log of grants, faults and phases', () => {
    expect(run().map((e) => `${e.atMs} ${e.what} ${e.who}`)).toEqual([
      '0 phase main',
      '275.845 acquire client 1',
      '525.845 release client 1',
      // Client 0 asked at 340.26 and waited for client 1.
      '525.845 acquire client 0',
      '775.845 release client 0',
      // Client 1 asked again at 525.845 + 59.014 = 584.859.
      '775.845 acquire client 1',
      '1000 fault-start server-pause n3',
      '1025.845 release client 1',
      // Client 0 asked at 775.845 + 111.221 = 887.066.
      '1025.845 acquire client 0',
      '1275.845 release client 0',
      '1365.351 acquire client 0',
      '1500 fault-stop server-pause n3',
      '1615.351 release client 0',
      // Client 1 asked at 1025.845 + 357.406 = 1383.251.
      '1615.351 acquire client 1',
      '1865.351 release client 1',
      '2047.492 acquire client 0',
      '2297.492 release client 0',
      '2297.492 acquire client 1',
      // The symbolic target resolves to whoever holds the lock at 2500: client 1.
      '2500 fault-start client-pause client 1',
      '3000 phase heal',
      '3000 phase recover',
      '3000 fault-stop client-pause client 1',
      // Its release was due at 2547.492; the pause held it until 3000.
      '3000 release client 1',
      // The main phase is over: nobody asks again.
      '4000 phase final-reads',
    ]);
  });

  it('replays the same way twice', () => {
    expect(run()).toEqual(run());
  });
});
