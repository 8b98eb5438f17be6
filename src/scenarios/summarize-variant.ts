/**
 * A scenario variant over its seeds, as one row of the debate table (pure):
 * what each property measured ("unsafe in 3/3 seeds: 12 lost updates, 4
 * stale writes", "safe in 3/3 seeds"), whether that is what the debate
 * agrees on, and the facts that say whether the fault struck at all.
 *
 * The seeds' counts come from compare's cell aggregation (summarizeCell);
 * the lock/data split and the expectation are the scenarios' own.
 */
import { cellWeight, describeCost, formatKinds, summarizeCell, type CellSummary } from '../compare/cell-summary.js';
import { describeJobs } from '../compare/cell-jobs.js';
import { plural } from '../compare/format-units.js';
import type { Expectation, Safety, Scenario, ScenarioVariant } from './scenario.js';
import { addFindings } from './client-findings.js';
import type { PropertyVerdict, ScenarioRun } from './scenario-run.js';
import { variantNotRunnable } from './variant-options.js';

export type PropertyOutcome = Safety | 'unknown' | 'not-run';

export interface PropertySummary {
  outcome: PropertyOutcome;
  /** Runs whose verdict on this property was false, true, or neither (unknown, failed, not checked). */
  unsafe: number;
  safe: number;
  unknown: number;
  kinds: Record<string, number>;
  /** "unsafe in 2/3 seeds: 5 lost updates", "safe in 3/3 seeds". */
  text: string;
}

export type RowStatus = 'measured' | 'not-run' | 'not-applicable' | 'not-reproduced';
export type Match = 'as-expected' | 'differs' | 'undecided' | 'no-expectation';

export interface VariantSummary {
  scenarioId: string;
  label: string;
  text: string;
  status: RowStatus;
  /** Why the variant was not run (not applicable, not reproduced). */
  reason: string | null;
  expected: Expectation | null;
  lock: PropertySummary;
  data: PropertySummary;
  match: Match;
  matchReason: string;
  /** The measured verdict in one line. */
  verdict: string;
  /** What else the runs show: faults applied, writes rejected, expired grants, refusals. */
  notes: string[];
  cell: CellSummary;
  runs: ScenarioRun[];
}

export function summarizeVariant(scenario: Scenario, variant: ScenarioVariant, plannedSeeds: readonly number[], runs: readonly ScenarioRun[]): VariantSummary {
  const reason = variantNotRunnable(scenario, variant) ?? null;
  const o = variant.options;
  const cell = summarizeCell(
    {
      id: `${scenario.id}/${variant.label}`,
      backend: o.backend,
      resource: o.resource,
      nemesis: 'scripted',
      faults: [...new Set(o.script.map((w) => w.fault))],
      notApplicable: reason,
    },
    reason === null ? plannedSeeds : [],
    runs.map((r) => r.summary),
  );
  const sorted = [...runs].sort((a, b) => a.summary.seed - b.summary.seed);
  // Seeds that had to show the danger (or the protection at work) and did not: their "safe" proves nothing.
  const judged = variant.evidence === undefined ? sorted : sorted.map((r) => (hasEvidence(r) ? r : { ...r, lock: unproven(r.lock), data: unproven(r.data) }));
  const lock = summarizeProperty(judged.map((r) => r.lock));
  const data = summarizeProperty(judged.map((r) => r.data));
  const status: RowStatus =
    scenario.notReproduced !== undefined ? 'not-reproduced' : reason !== null ? 'not-applicable' : sorted.length === 0 ? 'not-run' : 'measured';
  const expected = variant.expected ?? null;
  const { match, matchReason } = matchOf(expected, { lock, data }, sorted);
  return {
    scenarioId: scenario.id,
    label: variant.label,
    text: variant.text,
    status,
    reason,
    expected,
    lock,
    data,
    match: status === 'measured' || expected === null ? match : 'undecided',
    matchReason: status === 'measured' || expected === null ? matchReason : (reason ?? 'not run'),
    verdict: status === 'measured' ? `data ${data.text}; lock ${lock.text}` : status === 'not-run' ? 'not run' : (reason ?? ''),
    notes: [...notesOf(cell, sorted), ...(variant.evidence === undefined ? [] : evidenceNotes(sorted))],
    cell,
    runs: sorted,
  };
}

export function summarizeProperty(verdicts: readonly PropertyVerdict[]): PropertySummary {
  const n = verdicts.length;
  const unsafe = verdicts.filter((v) => v.valid === false).length;
  const safe = verdicts.filter((v) => v.valid === true).length;
  const unknown = n - unsafe - safe;
  const kinds: Record<string, number> = {};
  for (const v of verdicts) for (const [k, c] of Object.entries(v.kinds)) kinds[k] = (kinds[k] ?? 0) + c;
  const outcome: PropertyOutcome = n === 0 ? 'not-run' : unsafe > 0 ? 'unsafe' : unknown > 0 ? 'unknown' : 'safe';
  const phrase = kindPhrase(kinds);
  const text =
    outcome === 'not-run'
      ? 'not run'
      : outcome === 'unsafe'
        ? `unsafe in ${unsafe}/${n} seeds${phrase === '' ? '' : `: ${phrase}`}${unknown > 0 ? ` (${unknown} unknown)` : ''}`
        : outcome === 'unknown'
          ? `unknown in ${unknown}/${n} seeds${safe > 0 ? `, safe in ${safe}` : ''}`
          : `safe in ${safe}/${n} seeds`;
  return { outcome, unsafe, safe, unknown, kinds, text };
}

const KIND_WORDS: Record<string, string> = {
  'lost-update': 'lost update',
  'duplicate-job': 'job done twice',
  'lost-job': 'lost job',
  'stale-write': 'stale write',
  'double-hold': 'double hold',
  'maybe-double-hold': 'possible double hold',
  'interleaved-sections': 'interleaving',
  'phantom-update': 'phantom update',
  'token-regression': 'token regression',
  'token-reuse': 'token granted twice',
  'not-linearizable': 'non-linearizable history',
};

/** "12 lost updates, 4 stale writes": most frequent first. */
export function kindPhrase(kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .filter(([, n]) => n > 0)
    .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : 1))
    .map(([k, n]) => (KIND_WORDS[k] === undefined ? `${k} ${n}` : plural(n, KIND_WORDS[k])))
    .join(', ');
}

function matchOf(
  expected: Expectation | null,
  measured: Record<'lock' | 'data', PropertySummary>,
  runs: readonly ScenarioRun[],
): { match: Match; matchReason: string } {
  const props = (['lock', 'data'] as const).filter((p) => expected?.[p] !== undefined);
  if (expected === null || props.length === 0) return { match: 'no-expectation', matchReason: 'the debate does not agree on an outcome' };
  const differs = props.filter((p) => (measured[p].outcome === 'safe' || measured[p].outcome === 'unsafe') && measured[p].outcome !== expected[p]);
  const undecided = props.filter((p) => measured[p].outcome === 'unknown' || measured[p].outcome === 'not-run');
  const missed = runs.filter((r) => r.facts !== null && r.facts.faults.planned > 0 && r.facts.faults.applied === 0).length;
  const says = (ps: readonly ('lock' | 'data')[]): string => ps.map((p) => `expected ${p} ${expected[p]}, measured ${measured[p].outcome}`).join('; ');
  if (differs.length > 0 && missed > 0)
    return { match: 'undecided', matchReason: `${says(differs)}, but the fault struck in none of ${plural(missed, 'run')}` };
  if (differs.length > 0) return { match: 'differs', matchReason: says(differs) };
  if (undecided.length > 0) return { match: 'undecided', matchReason: says(undecided) };
  return { match: 'as-expected', matchReason: says(props) };
}

function notesOf(cell: CellSummary, runs: readonly ScenarioRun[]): string[] {
  const notes: string[] = [];
  const facts = runs.flatMap((r) => (r.facts === null ? [] : [r.facts]));
  if (facts.length > 0) {
    const planned = facts.reduce((t, f) => t + f.faults.planned, 0);
    const applied = facts.reduce((t, f) => t + f.faults.applied, 0);
    const skipped = [...new Set(facts.flatMap((f) => f.faults.skipped))];
    notes.push(`faults applied: ${applied} of ${plural(planned, 'window')}${skipped.length > 0 ? ` (skipped: ${skipped.slice(0, 2).join('; ')})` : ''}`);
    const expired = facts.reduce((t, f) => t + f.expiredGrants, 0);
    if (expired > 0) notes.push(`${plural(expired, 'lock')} granted with no validity left (validity_ms <= 0)`);
    const acquires = formatKinds(sumCounts(facts.map((f) => f.acquireFailures)));
    if (acquires !== '') notes.push(`acquires refused: ${acquires}`);
    const accesses = formatKinds(sumCounts(facts.map((f) => f.refusedAccesses)));
    if (accesses !== '') notes.push(`accesses refused: ${accesses}`);
  }
  const counted = runs.flatMap((r) => (r.increments === null ? [] : [r.increments]));
  const lost = counted.reduce((t, c) => t + c.lost, 0);
  const acked = counted.reduce((t, c) => t + c.acked, 0);
  // The rate Jepsen reports ("18% of acknowledged updates lost"), over the seeds whose final read counted.
  if (lost > 0)
    notes.push(
      `${lost} of ${plural(acked, 'acknowledged increment')} lost (${percent(lost, acked)}${counted.length < runs.length ? `, over the ${counted.length} of ${runs.length} runs whose final read counted` : ''})`,
    );
  // The jobs workload's rate (compare's pooled measure over the seeds): duplicates per 1,000 jobs with their interval.
  if (cell.jobs !== null) notes.push(describeJobs(cell.jobs));
  if (cell.cost !== null && (cell.resource === 'version' || cell.resource === 'for-update' || cell.backend === 'none'))
    notes.push(`cost: ${describeCost(cell.cost)}`);
  const findings = addFindings(runs.map((r) => r.findings));
  const reported = Object.entries(findings).sort(([a], [b]) => (a < b ? -1 : 1));
  if (reported.length > 0) notes.push(`the client reported: ${reported.map(([kind, n]) => `${kind} ×${n}`).join(', ')}`);
  const w = cell.writes;
  if (w && w.rejected > 0) notes.push(`${w.rejected} of ${plural(w.accepted + w.rejected + w.unknown, 'write')} rejected by the resource`);
  if (cell.outcome === 'safe') notes.push(cellWeight(cell));
  // Untested is not safe: a seed whose data held but where the danger never came (no double hold, no refusal) says so.
  const untested = runs.filter((r) => r.summary.outcome === 'untested' && r.data.valid === true).length;
  if (untested > 0)
    notes.push(
      `${plural(untested, 'seed')} of ${runs.length} never met the danger (no double hold, no refusal): ${untested === 1 ? 'its' : 'their'} data safe is untested`,
    );
  if (cell.uselessRuns > 0) notes.push(`safe but useless in ${cell.uselessRuns} of ${plural(runs.length, 'run')}: every write rejected`);
  const errors = runs.filter((r) => r.summary.status === 'error').map((r) => `seed ${r.summary.seed}: ${r.summary.error ?? '?'}`);
  if (errors.length > 0) notes.push(`failed to run: ${errors.join('; ')}`);
  const shared = [...new Set(runs.flatMap((r) => (r.sharedFrom === null ? [] : [r.sharedFrom])))];
  if (shared.length > 0) notes.push(`same runs as ${shared.join(', ')}`);
  return notes;
}

/**
 * The run tested what the row is about: a grant lost in a failover, the lock
 * held twice (a split brain grants on both sides at once, with no failover
 * between the grants), or grants refused for want of replicas.
 */
function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`;
}

function hasEvidence(r: ScenarioRun): boolean {
  return r.facts !== null && (r.facts.lostGrants > 0 || r.facts.replicationRefusals > 0 || r.lock.valid === false);
}

function unproven(v: PropertyVerdict): PropertyVerdict {
  return v.valid === true ? { ...v, valid: 'unknown' } : v;
}

function evidenceNotes(runs: readonly ScenarioRun[]): string[] {
  const facts = runs.flatMap((r) => (r.facts === null ? [] : [r.facts]));
  const seeds = (pick: (f: NonNullable<ScenarioRun['facts']>) => number): string => {
    const hit = facts.filter((f) => pick(f) > 0);
    return `${hit.reduce((t, f) => t + pick(f), 0)} in ${hit.length}/${runs.length} seeds`;
  };
  const none = runs.filter((r) => !hasEvidence(r)).length;
  return [
    `acknowledged grants lost in the failover (another client granted the lock while the holder held it, within its TTL): ${seeds((f) => f.lostGrants)}`,
    `grants refused for want of replicas (WAIT / NOREPLICAS): ${seeds((f) => f.replicationRefusals)}`,
    `fencing tokens that went backwards: ${seeds((f) => f.tokenRegressions)}`,
    ...(none > 0 ? [`${plural(none, 'seed')} showed no lost grant, no double hold and no refusal: undecided, not safe`] : []),
  ];
}

function sumCounts(all: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of all) for (const [k, n] of Object.entries(c)) out[k] = (out[k] ?? 0) + n;
  return out;
}
