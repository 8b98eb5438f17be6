/**
 * The matrix's unsafe cells shrunk (`npm run queues -- --shrink`): each failing
 * run's plan shrunk on real clusters (src/shrink/run-queue-shrink.ts), its
 * re-runs side by side on the lanes, one cell after another; each result kept
 * as DIR/shrinks/<id>.json so an interrupted set resumes, and rendered under
 * the table as the cell's shrunk reproduction (its plan, its rate, its replay).
 * The rule is the fixed one the flags give (a few re-runs a candidate, a few
 * candidates): the matrix's cost, said in the section's first line.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { QueueCellRecord, ShrunkCell } from './render-queues-md.js';

/** A cell's shrink as the document shows it. */

export interface CellShrinkRule {
  runs: number;
  minFails: number;
  maxCandidates: number;
}

export async function shrinkQueueCells(
  records: readonly QueueCellRecord[],
  dir: string,
  lanes: number,
  rule: CellShrinkRule,
  say: (line: string) => void,
): Promise<void> {
  const { runQueueShrink } = await import('../shrink/run-queue-shrink.js');
  const { realQueueHuntDeps } = await import('../hunt/real-queue-hunt-deps.js');
  mkdirSync(join(dir, 'shrinks'), { recursive: true });
  const todo = records.filter((r) => r.outcome === 'unsafe' && r.runDir !== undefined && !existsSync(shrinkPath(dir, r.id)));
  let done = 0;
  for (const r of todo) {
    const started = Date.now();
    const log = (l: string): void => say(`[shrink ${r.id}] ${l}`);
    try {
      // A record's run directory may be written relative to the set's directory (a set moved or copied keeps working).
      const runDir = isAbsolute(r.runDir!) ? r.runDir! : join(dir, r.runDir!);
      const report = await runQueueShrink(
        { runDir, ...rule, shrinkDir: join(dir, 'shrinks', r.id) },
        realQueueHuntDeps(log, () => false, lanes),
      );
      const replay = report.lines.find((l) => l.startsWith('replay: '))?.slice('replay: '.length);
      const cell: ShrunkCell = {
        id: r.id,
        summary: report.lines[0]!,
        ...(replay !== undefined ? { replay } : {}),
        exitCode: report.exitCode,
        durationMs: Date.now() - started,
      };
      writeFileAtomic(shrinkPath(dir, r.id), JSON.stringify(cell, null, 2) + '\n');
      say(`queues: shrink ${++done}/${todo.length} ${r.id}: ${cell.summary}`);
    } catch (err) {
      if (!(err instanceof FencecheckError)) throw err;
      const cell: ShrunkCell = { id: r.id, summary: `not shrunk: ${err.message}`, exitCode: err.exitCode, durationMs: Date.now() - started };
      writeFileAtomic(shrinkPath(dir, r.id), JSON.stringify(cell, null, 2) + '\n');
      say(`queues: shrink ${++done}/${todo.length} ${r.id}: ${cell.summary}`);
    }
  }
}

/** The shrinks recorded in DIR (none when the set was not shrunk). */
export function readShrunkCells(dir: string, records: readonly QueueCellRecord[]): ShrunkCell[] {
  return records.filter((r) => existsSync(shrinkPath(dir, r.id))).map((r) => JSON.parse(readFileSync(shrinkPath(dir, r.id), 'utf8')) as ShrunkCell);
}

function shrinkPath(dir: string, id: string): string {
  return join(dir, 'shrinks', `${id}.json`);
}
