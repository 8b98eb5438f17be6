/**
 * Everything the report page draws, computed here (typed, tested) so that the
 * page only decodes and draws: the history's columns, the op bars and their
 * lanes, lock holds, fault windows with the lanes they hit, and each anomaly's
 * ops resolved from history indexes to bars.
 *
 * Size caps, so a report stays a file a browser opens: up to `fullDetailLines`
 * ops everything is embedded; past it every op still gets its bar but only
 * the ops named by anomalies (and the nemesis's) keep their values and extra
 * fields; past `maxEmbedLines` only the first ops are embedded. The page says
 * which of these happened.
 */
import { basename } from 'node:path';
import type { HoldEnd } from '../../core/checkers/lock/holds.js';
import type { History } from '../../core/history/op.js';
import { encodeHistory, type HistoryColumns } from './encode-history.js';
import { faultWindows, type FaultWindow } from './fault-windows.js';
import { lockHolds } from './lock-holds.js';
import { lineOfIndex, pairOperations, type OpPair } from './pair-operations.js';
import type { RunDir } from './read-run-dir.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import { formatStoredOutcome } from '../check/format-outcome.js';
import type { StoredTest } from '../../core/run-files/test-json.js';
import { storyOf, type Story } from './story.js';

export interface ReportCaps {
  fullDetailLines: number;
  maxEmbedLines: number;
}

/** Measured: about 40 bytes of HTML per op with every field, 25 without; both caps keep a report under 10 MB. */
/** How a hold ended, as the page's codes: the order is part of the data format. */
export const HOLD_ENDS: readonly HoldEnd[] = ['release', 'next-acquire', 'retired', 'end-of-history'];

export const DEFAULT_CAPS: ReportCaps = { fullDetailLines: 200_000, maxEmbedLines: 350_000 };

export interface ReportLane {
  label: string;
  kind: 'client' | 'target';
  process: number | null;
}

export interface ReportFault extends FaultWindow {
  /** Lanes the fault hit: the client processes it names (and their worker's later ids), or its target's lane. */
  lanes: number[];
}

export interface AnomalyRef {
  checker: number;
  anomaly: number;
  /** Bars of the ops the anomaly names. */
  pairs: number[];
  /** Lines named that are not client ops (nemesis ops). */
  lines: number[];
  /** opIndexes not found in the embedded history. */
  missing: number[];
  witness?: { prefix: number[]; op: number };
}

export interface ReportData {
  format: 1;
  generator: string;
  run: string;
  test: StoredTest | null;
  results: StoredResults | null;
  /** The outcome line (safe only with evidence; untested and why), as `fencecheck run` prints it; null before the checkers ran. */
  outcome: string | null;
  warnings: string[];
  historyOps: number;
  embeddedOps: number;
  detail: 'full' | 'anomalies';
  /** First and last time of the history (ns). */
  span: [number, number];
  history: HistoryColumns;
  /** Bars: invocation line (delta-encoded), completion line as an offset from it (0: pending), lane. */
  pairs: { inv: number[]; done: number[]; lane: number[] };
  lanes: ReportLane[];
  /** Lock holds: `definite` 1 for an ok acquire, 0 for a maybe hold; `endedBy` indexes HOLD_ENDS. */
  holds: { lane: number[]; start: number[]; end: number[]; definite: number[]; endedBy: number[]; acquireLine: number[]; releaseLine: number[] };
  faults: ReportFault[];
  anomalies: AnomalyRef[];
  /** A shrunk run's story (story.ts): the page opens on it. Absent for other runs. */
  story?: Story;
}

export function buildReportData(
  run: RunDir,
  generator: string,
  caps: ReportCaps = DEFAULT_CAPS,
  opts: { story?: boolean; shrunkSummary?: string } = {},
): ReportData {
  const total = run.history.length;
  const history = total > caps.maxEmbedLines ? run.history.slice(0, caps.maxEmbedLines) : run.history;
  const { pairs, pairOfLine } = pairOperations(history);
  const anomalies = resolveAnomalies(run.results, history, pairOfLine);
  const lanes = clientLanes(pairs);
  const faults = faultWindows(history).map((w) => ({ ...w, lanes: [] as number[] }));
  assignFaultLanes(faults, lanes, pairs, history, clientCount(run.test));
  const laneOfProcess = new Map(lanes.map((l, i) => [l.process, i]));
  const holds = lockHolds(history);
  const detail = total > caps.fullDetailLines ? 'anomalies' : 'full';
  const keep = detail === 'full' ? undefined : detailLines(history, pairs, anomalies);
  const warnings = run.warnings.map((w) => w.message);
  if (total > caps.maxEmbedLines) warnings.push(`the history has ${total} ops; this report embeds the first ${caps.maxEmbedLines}`);
  if (detail === 'anomalies')
    warnings.push(
      `the history has more than ${caps.fullDetailLines} ops: values and extra fields are embedded only for the ops the anomalies name; see history.jsonl for the rest`,
    );
  const missing = anomalies.reduce((n, a) => n + a.missing.length, 0);
  if (missing > 0) warnings.push(`${missing} op index${missing === 1 ? '' : 'es'} named by anomalies ${missing === 1 ? 'is' : 'are'} not in the history`);
  return {
    format: 1,
    generator,
    run: basename(run.dir),
    test: run.test,
    results: run.results,
    outcome: run.results === null || run.test === null ? null : formatStoredOutcome(run.results, run.test.workload),
    warnings,
    historyOps: total,
    embeddedOps: history.length,
    detail,
    span: timeSpan(history),
    history: encodeHistory(history, keep === undefined ? undefined : (line) => keep.has(line)),
    pairs: {
      inv: pairs.map((p, i) => (i === 0 ? p.inv : p.inv - pairs[i - 1]!.inv)),
      done: pairs.map((p) => (p.done === -1 ? 0 : p.done - p.inv)),
      lane: pairs.map((p) => laneOfProcess.get(p.process)!),
    },
    lanes,
    holds: {
      lane: holds.map((h) => laneOfProcess.get(h.process)!),
      start: holds.map((h) => h.start),
      end: holds.map((h) => h.end),
      definite: holds.map((h) => (h.definite ? 1 : 0)),
      endedBy: holds.map((h) => HOLD_ENDS.indexOf(h.endedBy)),
      acquireLine: holds.map((h) => h.acquireLine),
      releaseLine: holds.map((h) => h.releaseLine),
    },
    faults,
    anomalies,
    ...storyField(opts.story === true, run, history, holds, faults, opts.shrunkSummary),
  };
}

function storyField(
  wanted: boolean,
  run: RunDir,
  history: History,
  holds: ReturnType<typeof lockHolds>,
  faults: readonly ReportFault[],
  shrunkSummary: string | undefined,
): { story?: Story } {
  const planZero = run.test?.['mainStartNs'];
  const story = wanted ? storyOf(run.results, history, holds, faults, typeof planZero === 'number' ? planZero : undefined) : null;
  if (story === null) return {};
  // The shrink's summary first: how small the plan is and how often it fails (its rate with Wilson's interval).
  return { story: shrunkSummary === undefined ? story : { ...story, lines: [shrunkSummary, ...story.lines] } };
}

function clientLanes(pairs: readonly OpPair[]): ReportLane[] {
  const processes = [...new Set(pairs.map((p) => p.process))].sort((a, b) => a - b);
  return processes.map((p) => ({ label: `process ${p}`, kind: 'client', process: p }));
}

function clientCount(test: StoredTest | null): number | null {
  const n = test?.clients;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * A fault that names client processes hits their lanes and, since a worker
 * continues under `process + clients` after an info, the lanes of the same
 * worker that have ops inside the window. A fault on a named target with no
 * process (a server node, a client host) gets a lane of its own, above the
 * clients. Partitions and pointless points hit no lane: they shade them all.
 */
function assignFaultLanes(faults: ReportFault[], lanes: ReportLane[], pairs: readonly OpPair[], history: History, clients: number | null): void {
  const laneOf = new Map(lanes.map((l, i) => [l.process, i]));
  const targets = new Map<string, number>();
  for (const f of faults) {
    if (f.processes.length > 0) {
      const hit = new Set(f.processes);
      if (clients !== null) {
        const workers = new Set(f.processes.map((p) => p % clients));
        const end = f.end ?? Infinity;
        for (const pair of pairs) {
          const t = history[pair.inv]!.time;
          if (t >= f.start && t <= end && workers.has(pair.process % clients)) hit.add(pair.process);
        }
      }
      f.lanes = [...hit]
        .filter((p) => laneOf.has(p))
        .map((p) => laneOf.get(p)!)
        .sort((a, b) => a - b);
    } else if (f.target !== null && f.kind !== 'partition' && f.kind !== 'other') {
      if (!targets.has(f.target)) targets.set(f.target, targets.size);
      f.lanes = [targets.get(f.target)!];
    }
  }
  // Target lanes go first, sorted by name (n1, n2, ..., n10); client lanes move down by their count.
  const names = [...targets.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (names.length === 0) return;
  const rank = new Map(names.map((name, i) => [targets.get(name)!, i]));
  for (const f of faults) f.lanes = f.processes.length > 0 ? f.lanes.map((l) => l + names.length) : f.lanes.map((l) => rank.get(l)!);
  lanes.unshift(...names.map((name): ReportLane => ({ label: name, kind: 'target', process: null })));
}

function resolveAnomalies(results: StoredResults | null, history: History, pairOfLine: Int32Array): AnomalyRef[] {
  const refs: AnomalyRef[] = [];
  results?.checkers.forEach((c, checker) =>
    (c.anomalies ?? []).forEach((a, anomaly) => {
      const ref: AnomalyRef = { checker, anomaly, pairs: [], lines: [], missing: [] };
      for (const index of a.opIndexes ?? []) {
        const line = lineOfIndex(history, index);
        if (line === -1) ref.missing.push(index);
        else if (pairOfLine[line]! >= 0) ref.pairs.push(pairOfLine[line]!);
        else ref.lines.push(line);
      }
      ref.pairs = [...new Set(ref.pairs)];
      if (a.witness) {
        const pairOf = (index: number): number => {
          const line = lineOfIndex(history, index);
          return line === -1 ? -1 : pairOfLine[line]!;
        };
        ref.witness = { prefix: a.witness.prefix.map(pairOf), op: pairOf(a.witness.op) };
        for (const index of [...a.witness.prefix, a.witness.op]) if (pairOf(index) === -1) ref.missing.push(index);
      }
      refs.push(ref);
    }),
  );
  return refs;
}

/** The lines that keep their fields when the history is too large to carry whole. */
function detailLines(history: History, pairs: readonly OpPair[], anomalies: readonly AnomalyRef[]): Set<number> {
  const keep = new Set<number>();
  history.forEach((op, line) => {
    if (op.process === 'nemesis') keep.add(line);
  });
  for (const a of anomalies) {
    const named = [...a.pairs, ...(a.witness ? [a.witness.op, ...a.witness.prefix] : [])];
    for (const p of named) {
      const pair = pairs[p];
      if (pair === undefined) continue;
      keep.add(pair.inv);
      if (pair.done !== -1) keep.add(pair.done);
    }
    for (const line of a.lines) keep.add(line);
  }
  return keep;
}

function timeSpan(history: History): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const op of history) {
    if (op.time < lo) lo = op.time;
    if (op.time > hi) hi = op.time;
  }
  return history.length === 0 ? [0, 0] : [lo, hi];
}
