import { describe, expect, it } from 'vitest';
import {
  FENCECHECK_TABLES,
  observationProblems,
  parseNftTables,
  planReset,
  type ClusterObservation,
  type ResetStep,
} from '../../../runtime/cluster/warm/reset-plan.js';
import { Prng } from '../../../core/random/prng.js';
import { testSeed } from '../../support/seed.js';

const clean: ClusterObservation = {
  nodes: [
    { name: 'redis1', running: true, stopped: false },
    { name: 'pg1', running: true, stopped: false },
  ],
  clocks: [{ file: '/r/clock/redis1.offset', offsetMs: 0 }],
  nftTables: [{ namespace: 'fc-redis1', tables: [] }],
  clientProcesses: [],
};

/** What each step does to the observed state: the model the real steps (reset-cluster.ts) implement. */
function applied(o: ClusterObservation, steps: readonly ResetStep[]): ClusterObservation {
  const has = (kind: ResetStep['kind'], pred: (s: ResetStep) => boolean): boolean => steps.some((s) => s.kind === kind && pred(s));
  return {
    nodes: o.nodes.map((n) =>
      has('restart', (s) => 'node' in s && s.node === n.name)
        ? { ...n, running: true, stopped: false }
        : has('resume', (s) => 'node' in s && s.node === n.name)
          ? { ...n, stopped: false }
          : n,
    ),
    clocks: o.clocks.map((c) => (has('clock-zero', (s) => 'file' in s && s.file === c.file) ? { ...c, offsetMs: 0 } : c)),
    nftTables: o.nftTables.map((t) => ({
      ...t,
      tables: (t.tables ?? []).filter((table) => !has('nft-delete', (s) => 'table' in s && s.table === table && s.namespace === t.namespace)),
    })),
    clientProcesses: has('end-clients', () => true) ? [] : o.clientProcesses,
  };
}

describe('planReset and observationProblems', () => {
  it('a clean cluster needs no step and passes the check', () => {
    expect(planReset(clean)).toEqual([]);
    expect(observationProblems(clean)).toEqual([]);
  });

  it('plans a step for each leftover, clients first, and the check names each', () => {
    const dirty: ClusterObservation = {
      nodes: [
        { name: 'redis1', running: false, stopped: false },
        { name: 'redis2', running: true, stopped: true },
      ],
      clocks: [
        { file: '/r/clock/client1-1.offset', offsetMs: -30000 },
        { file: '/r/clock/redis2.offset', offsetMs: undefined },
      ],
      nftTables: [{ namespace: 'fc-c1', tables: ['fc-part', 'someone-elses'] }],
      clientProcesses: ['client1-3'],
    };
    expect(planReset(dirty)).toEqual([
      { kind: 'end-clients', names: ['client1-3'] },
      { kind: 'nft-delete', namespace: 'fc-c1', table: 'fc-part' },
      { kind: 'restart', node: 'redis1' },
      { kind: 'resume', node: 'redis2' },
      { kind: 'clock-zero', file: '/r/clock/client1-1.offset' },
      { kind: 'clock-zero', file: '/r/clock/redis2.offset' },
    ]);
    expect(observationProblems(dirty)).toEqual([
      'client processes still running: client1-3',
      'fc-c1: nft table fc-part left',
      'redis1: not running',
      'redis2: stopped (paused)',
      '/r/clock/client1-1.offset: clock offset -30000 ms',
      '/r/clock/redis2.offset: clock offset unreadable',
    ]);
  });

  it('a namespace whose tables could not be listed fails the check (nothing to plan, nothing proven)', () => {
    const o = { ...clean, nftTables: [{ namespace: 'fc-c2', tables: undefined }] };
    expect(planReset(o)).toEqual([]);
    expect(observationProblems(o)).toEqual(['fc-c2: nft tables could not be listed']);
  });

  it('random observations: the planned steps leave nothing the check finds (seeded)', () => {
    const seed = testSeed('reset-plan random observations', 'test/cluster/warm/reset-plan.test.ts');
    const rng = new Prng(seed);
    for (let i = 0; i < 500; i++) {
      const o: ClusterObservation = {
        nodes: Array.from({ length: rng.int(1, 7) }, (_, k) => ({ name: `n${k}`, running: rng.float() < 0.8, stopped: rng.float() < 0.2 })),
        clocks: Array.from({ length: rng.int(0, 5) }, (_, k) => ({
          file: `/c/${k}.offset`,
          offsetMs: rng.float() < 0.1 ? undefined : rng.float() < 0.5 ? 0 : rng.int(-60000, 60000),
        })),
        nftTables: Array.from({ length: rng.int(0, 5) }, (_, k) => ({
          namespace: `fc-h${k}`,
          tables: [...FENCECHECK_TABLES, 'other'].filter(() => rng.float() < 0.4),
        })),
        clientProcesses: Array.from({ length: rng.int(0, 3) }, (_, k) => `client${k}`),
      };
      const after = applied(o, planReset(o));
      expect(observationProblems(after), `observation ${i}: ${JSON.stringify(o)}`).toEqual([]);
      // And the check fails exactly when there was something to do.
      expect(observationProblems(o).length > 0).toBe(planReset(o).length > 0);
    }
  });
});

describe('parseNftTables', () => {
  it('reads the table names of `nft list tables`', () => {
    expect(parseNftTables('table ip fc-part\ntable ip fc-loss\n')).toEqual(['fc-part', 'fc-loss']);
    expect(parseNftTables('')).toEqual([]);
  });
});
