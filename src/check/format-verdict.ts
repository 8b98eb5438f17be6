/**
 * How a check result reads for a person: one verdict line per file, and for an
 * invalid history its witness (the longest linearizable prefix, the state
 * there, the op that cannot follow and why), in the spirit of Knossos'
 * `:op`, `:previous-ok` and `:final-paths`, without enumerating paths.
 */
import type { LinearizabilityResult } from '../../core/checkers/linearizability/result.js';
import type { Model } from '../../core/checkers/model.js';
import { withDefaults } from '../../core/checkers/model-defaults.js';
import type { Operation } from '../../core/checkers/operation.js';
import { formatError } from '../../core/errors.js';
import { oneLine } from '../../core/printable.js';
import type { FileCheck } from './check-files.js';

/** How many ops of the prefix to show before the failing op; the rest are summarised. */
const PREFIX_SHOWN = 8;
const WARNINGS_SHOWN = 3;

export function formatFileCheck(c: FileCheck, model: Model<unknown>): string {
  // The file name and everything quoted from the file are input: one line each (src/printable.ts).
  if (c.error) return `error    ${oneLine(c.file)}\n${indent(formatError(c.error))}`;
  const r = c.result!;
  const head = `${label(r)} ${oneLine(c.file)}  (${r.stats.operations} ops, ${r.stats.partitions} partition${r.stats.partitions === 1 ? '' : 's'}, ${r.stats.elapsedMs.toFixed(1)} ms)`;
  const lines = [head];
  for (const w of c.warnings.slice(0, WARNINGS_SHOWN)) lines.push(`  warning: ${oneLine(w.message)}`);
  if (c.warnings.length > WARNINGS_SHOWN) lines.push(`  … and ${c.warnings.length - WARNINGS_SHOWN} more warnings (--json lists them all)`);
  if (r.valid === 'unknown') lines.push(`  ${oneLine(r.reason ?? 'undecided')}`);
  if (r.valid === false && r.witness) lines.push(...formatWitness(r, model).map((l) => `  ${oneLine(l)}`));
  return lines.join('\n');
}

function label(r: LinearizabilityResult): string {
  return r.valid === true ? 'valid   ' : r.valid === false ? 'INVALID ' : 'unknown ';
}

export function formatWitness(r: LinearizabilityResult, model: Model<unknown>): string[] {
  const w = r.witness!;
  const describe = (op: Operation) => describeOp(op, model);
  const out: string[] = [];
  if (r.stats.partitions > 1) out.push(`in partition ${w.partitionLabel} (${w.partition + 1} of ${r.stats.partitions})`);
  out.push(`cannot linearize: ${describe(w.op)}`);
  out.push(`after the longest linearizable prefix (${w.prefix.length} ops)${w.prefix.length > PREFIX_SHOWN ? `, last ${PREFIX_SHOWN}:` : ':'}`);
  for (const op of w.prefix.slice(-PREFIX_SHOWN)) out.push(`  ${describe(op)}`);
  out.push(`state there: ${w.state}`);
  out.push(`why: ${w.reason}`);
  return out;
}

/** `process 3 cas 1→4 ok [invoke #40, complete #52]`: enough to find the op in the history file. */
export function describeOp(op: Operation, model: Model<unknown>): string {
  const what = withDefaults(model).describeOperation(op);
  const status = op.status !== 'pending' ? op.status : op.completeIndex === null ? 'never completed' : 'info (indeterminate)';
  const where = op.completeIndex === null ? `invoke #${op.invokeIndex}` : `invoke #${op.invokeIndex}, complete #${op.completeIndex}`;
  return `process ${op.process} ${what}, ${status} [${where}]`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
