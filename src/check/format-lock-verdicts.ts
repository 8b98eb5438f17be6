/**
 * The lock checkers' verdicts for a person: one line per checker, then the
 * first anomalies of each invalid one (every anomaly is in results.json).
 */
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import { oneLine } from '../../core/printable.js';

const ANOMALIES_SHOWN = 3;

export function formatVerdicts(verdicts: readonly CheckerVerdict[], deciding?: readonly string[]): string {
  const lines: string[] = [];
  for (const v of verdicts) {
    const label = v.valid === true ? 'valid   ' : v.valid === false ? 'INVALID ' : 'unknown ';
    const note = deciding && !deciding.includes(v.checker) ? ' (reported; does not decide this workload)' : '';
    // A stored results.json is input: every field it gives is kept to its line (src/printable.ts).
    lines.push(`${label} ${oneLine(v.checker.padEnd(22))} ${oneLine(v.summary)}${note}`);
    if (v.error) lines.push(`           error: ${oneLine(v.error)}`);
    for (const a of v.anomalies.slice(0, ANOMALIES_SHOWN)) lines.push(`           ${oneLine(a.kind)}: ${oneLine(a.message)}`);
    if (v.anomalyCount > ANOMALIES_SHOWN) lines.push(`           … ${v.anomalyCount - ANOMALIES_SHOWN} more in results.json`);
  }
  return lines.join('\n');
}
