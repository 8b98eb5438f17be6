/**
 * One descriptor per fault kind (issue 34), as backend-names.test.ts is for backends: a kind's name, as a string
 * literal, appears in production code (core/, runtime/, src/) only in its own files (its spec in core/generator/faults,
 * its live half in runtime/runner/faults), the two registries that key them by kind, and the exceptions listed below,
 * each with its reason. A new `'session-end'` in an unrelated file fails here: ask the kind's spec (faultSpec(kind):
 * what it needs of a backend, whether a seeded run drives it, its ops) or fault-of-op.ts instead.
 *
 * Guarded are the kinds whose names are distinctive words. `kill` and `partition` are not: `kill` is also an op, a
 * server's method and part of the queue faults' names, and `partition` a partition's target kind and its timeline shade.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';
import { repoRoot } from './import-graph.js';
import { inFoldersWithStem, productionFiles, staleExceptions, strayNames, type NameGuard } from './name-guard.js';

const ROOT = repoRoot(fileURLToPath(import.meta.url));
/** The folders a kind's own files live in: its pure spec, its live half. */
const OWN_FOLDERS = ['core/generator/faults', 'runtime/runner/faults'];

/** The kinds guarded, each with the file-name stems of its own files in OWN_FOLDERS (the server faults share a module). */
const OWN_STEMS = {
  'client-pause': ['client-pause'],
  'server-pause': ['server-pause', 'server-faults'],
  'session-end': ['session-end'],
  evict: ['evict'],
  clock: ['clock', 'server-faults'],
  delay: ['delay'],
  loss: ['loss', 'server-faults'],
} as const satisfies Partial<Record<FaultKind, readonly string[]>>;
type Guarded = keyof typeof OWN_STEMS;
const GUARDED = Object.keys(OWN_STEMS) as Guarded[];

const QUEUE_FAULTS = "a queue run's faults (QUEUE_FAULTS, and its windows' WINDOW_FAULTS) are a vocabulary of their own";
const SCENARIO = "a named scenario's script: windows of the kinds its story tells of, typed by FaultWindow";

/** The files that still name a kind, and why. Each must still name it (a stale exception fails too). */
const EXCEPTIONS: Record<string, { names: readonly Guarded[]; why: string }> = {
  'core/generator/faults/fault-kind.ts': { names: ['evict', 'clock', 'delay', 'loss'], why: 'FaultShade: how a timeline shades a kind, spelt as it' },
  'core/generator/parse-script.ts': { names: ['client-pause'], why: "--script's error shows an example window" },
  'core/plan/run-options.ts': {
    names: ['evict'],
    why: "--evict-policy, the evict kind's own flag: checked against the backend, written into a replay only when an evict window runs",
  },
  'core/queue/queue-claims.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'core/queue/queue-matrix.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'core/queue/queue-options.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'core/queue/queue-plan.ts': { names: ['delay'], why: QUEUE_FAULTS },
  'core/queue/queue-window.ts': { names: ['client-pause', 'delay'], why: QUEUE_FAULTS },
  'src/cli/hunt-queue-command.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'src/run/run-queue-test.ts': { names: ['delay'], why: QUEUE_FAULTS },
  'src/queue/render-queue-claims-md.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'src/queue/render-queues-md.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  'src/run/queue-client-check.ts': { names: ['client-pause'], why: QUEUE_FAULTS },
  // A backend refusing a kind is the backend's knowledge, in its own descriptor (LockSystem.faultsNotApplicable).
  'core/systems/etcd.ts': { names: ['clock'], why: 'etcd ignores LD_PRELOAD, so its clock cannot be shifted' },
  'core/systems/redis-sentinel.ts': { names: ['delay'], why: "a delay proxy cannot sit on a Sentinel client's link" },
  'runtime/hosts/clock-file.ts': { names: ['clock'], why: "CLOCK_DIR, the run directory's folder of offset files, named after the fault" },
  'runtime/cluster/namespace-doctor.ts': { names: ['delay'], why: "tc's `netem delay` in the kernel check, not the kind" },
  'src/cli/compare-command.ts': { names: ['client-pause', 'server-pause', 'clock'], why: "compare's default --nemeses" },
  'src/compare/libraries-matrix.ts': { names: ['client-pause', 'session-end', 'evict'], why: 'the libraries comparison: the faults each part runs' },
  'src/compare/expectations.ts': { names: ['client-pause'], why: "a manifest's example in the module's doc" },
  'src/compare/validate-manifest.ts': { names: ['client-pause'], why: "a manifest's example in its errors" },
  'src/hunt/near-miss.ts': {
    names: ['client-pause', 'session-end'],
    why: 'near misses measured per kind: how close a pause came to outliving its lease, writes begun after a session ended',
  },
  'src/hunt/hunt-target.ts': { names: ['delay'], why: 'a hunt with delay windows runs the delay proxies on both links' },
  'src/report/fault-windows.ts': { names: ['clock'], why: "the timeline's label of a clock window (its offset), by shade" },
  'src/scenarios/fault-script.ts': { names: ['client-pause', 'server-pause', 'clock', 'delay'], why: SCENARIO },
  'src/scenarios/consensus-scenarios.ts': { names: ['session-end', 'evict'], why: SCENARIO },
  'src/shrink/delta-debug.ts': { names: ['clock', 'delay'], why: "the shrink's steps that make one kind's window smaller (a clock's node set, a delay's ms)" },
};

const GUARD: NameGuard<Guarded> = {
  names: GUARDED,
  isOwn: (file, name) => inFoldersWithStem(file, OWN_FOLDERS, OWN_STEMS[name]),
  registries: ['core/generator/faults/registry.ts', 'runtime/runner/faults/registry.ts'],
  exceptions: EXCEPTIONS,
  // A spec's `shade:` is how the timeline colours its windows, and a new kind may borrow another's (a kind that drops
  // every packet shades as loss): found with issue 34's throwaway kind, which this guard took for a stray.
  notNames: /\bshade: '[a-z-]+'/g,
};

describe('fault kind names in production code', () => {
  const files = productionFiles(ROOT);

  it('guards kinds that exist', () => {
    expect(GUARDED.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k))).toEqual([]);
  });

  it("appear only in each kind's own files, the registries and the listed exceptions", () => {
    expect(strayNames(GUARD, files)).toEqual([]);
  });

  it('lists no stale exception: each still names what it lists', () => {
    expect(staleExceptions(GUARD, files)).toEqual([]);
  });

  it('fails on a new literal in an unrelated file, and not in its own files or a registry', () => {
    const quoted = (n: string) => ['fault: ', n, ''].join("'");
    const synthetic = new Map([
      ['core/vocabulary.ts', quoted('session-end')],
      ['src/hunt/near-miss.ts', quoted('evict')],
      ['runtime/runner/faults/server-faults.ts', quoted('loss')],
      ['core/generator/faults/evict.ts', quoted('evict')],
      ['runtime/runner/faults/registry.ts', quoted('delay')],
    ]);
    expect(strayNames(GUARD, synthetic)).toEqual(['core/vocabulary.ts: session-end', 'src/hunt/near-miss.ts: evict']);
  });
});
