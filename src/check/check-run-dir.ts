/**
 * Re-check a run directory (`fencecheck check results/<test>/latest`): read
 * its test.json and history.jsonl (tolerating a last line cut by an
 * interrupted run), run the workload's checkers again, and rewrite
 * results.json.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkersFor } from '../../checkers/lock/registry.js';
import { runCheckers, type LockCheckResult, type LockWorkload, type ResourceMode } from '../../checkers/lock/verdict.js';
import { FencecheckError, EXIT } from '../errors.js';
import type { HistoryWarning } from '../history/history-warning.js';
import { readHistory } from '../history/read-history.js';
import { type LockBackend, tokenKindOf } from '../../workloads/vocabulary.js';

interface TestJson {
  workload: LockWorkload;
  resource: ResourceMode;
  backend: LockBackend;
  durationMs?: number;
}

export function isRunDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, 'test.json')) && existsSync(join(path, 'history.jsonl'));
}

export async function checkRunDir(dir: string, onWarning?: (w: HistoryWarning) => void): Promise<LockCheckResult> {
  let test: TestJson;
  try {
    test = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8')) as TestJson;
  } catch (err) {
    throw new FencecheckError('bad-run-dir', `${dir}/test.json cannot be read: ${err instanceof Error ? err.message : String(err)}`, {
      hint: 'A run directory holds test.json and history.jsonl as `fencecheck run` writes them.',
      exitCode: EXIT.badInput,
    });
  }
  const history = await readHistory(join(dir, 'history.jsonl'), { format: 'jsonl', tolerateTruncatedTail: true, ...(onWarning ? { onWarning } : {}) });
  const tokenKind = tokenKindOf(test.backend);
  const result = runCheckers(checkersFor(test.workload), history, { workload: test.workload, resource: test.resource, backend: test.backend, tokenKind });
  const previous = readPrevious(join(dir, 'results.json'));
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ valid: result.valid, deciding: result.deciding, durationMs: previous?.durationMs ?? null, checkers: result.verdicts }, null, 2) + '\n');
  return result;
}

function readPrevious(path: string): { durationMs?: number } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { durationMs?: number };
  } catch {
    return undefined;
  }
}
