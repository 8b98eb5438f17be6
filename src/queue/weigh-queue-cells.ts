/**
 * The matrix's safe cells weighed (`npm run queues -- --weigh N`): a safe cell
 * is one run in which the danger occurred and nothing went wrong, which rules
 * out little. Each is run again at N - 1 more seeds (the same cell, the next
 * seeds), and the list under the table says what the tested seeds rule out
 * together (core/checkers/lock/weight.ts), or that a seed broke it: a safe
 * cell that was luck is named with the seed and replay that show it.
 */
import { formatPercent, ruledOutRate } from '../../core/checkers/lock/weight.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import type { QueueCellRecord } from './render-queues-md.js';
import type { QueueCellJob } from './run-queue-cells.js';

/** The extra seeds' jobs of each safe record (`options` gives a cell's run at a seed), ids `<cell>.seed-<s>`. */
export function weighJobs(
  records: readonly QueueCellRecord[],
  optionsAt: (cellId: string, seed: number) => QueueRunOptions | undefined,
  firstSeed: number,
  seeds: number,
): QueueCellJob<QueueCellRecord>[] {
  const jobs: QueueCellJob<QueueCellRecord>[] = [];
  for (const r of records.filter((x) => x.outcome === 'safe'))
    for (let s = firstSeed + 1; s < firstSeed + seeds; s++) {
      const options = optionsAt(r.id, s);
      if (options !== undefined)
        jobs.push({ id: weighId(r.id, s), base: { id: weighId(r.id, s), library: r.library, server: r.server, fault: r.fault, mode: r.mode }, options });
    }
  return jobs;
}

export function weighId(cellId: string, seed: number): string {
  return `${cellId}.seed-${seed}`;
}

/** One line a safe cell: its seeds' verdicts together and their weight, or the seed that broke it. */
export function weighLines(records: readonly QueueCellRecord[], extra: readonly QueueCellRecord[], firstSeed: number, seeds: number): string[] {
  const safe = records.filter((r) => r.outcome === 'safe');
  if (safe.length === 0) return [];
  const out = [
    `Weighed safes (\`npm run queues -- --weigh ${seeds}\`): each safe cell run again at seeds ${firstSeed + 1}–${firstSeed + seeds - 1}; what its tested seeds`,
    'rule out together with 95 % confidence, or the seed that broke it:',
    '',
  ];
  for (const r of safe) {
    const runs = [
      r,
      ...Array.from({ length: seeds - 1 }, (_, i) => extra.find((x) => x.id === weighId(r.id, firstSeed + 1 + i))).filter((x) => x !== undefined),
    ];
    const unsafe = runs.find((x) => x.outcome === 'unsafe');
    const unsafeCount = runs.filter((x) => x.outcome === 'unsafe').length;
    const tested = runs.filter((x) => x.outcome === 'safe').length;
    const untested = runs.filter((x) => x.outcome === 'untested').length;
    const other = runs.length - tested - untested - unsafeCount;
    const tail = `${untested > 0 ? `, ${untested} untested` : ''}${other > 0 ? `, ${other} not measured or unknown` : ''}`;
    if (unsafe !== undefined) {
      out.push(`- \`${r.id}\`: **UNSAFE at another seed**: ${unsafeCount} of ${runs.length} seeds unsafe${tail}; \`${unsafe.replay ?? unsafe.id}\``);
      continue;
    }
    const rate = ruledOutRate(tested);
    out.push(
      `- \`${r.id}\`: safe in ${tested} tested seed${tested === 1 ? '' : 's'} of ${runs.length}${tail}${rate === null ? '' : `: a failure that shows in at least ${formatPercent(rate)} of runs would have been found`}`,
    );
  }
  return out;
}
