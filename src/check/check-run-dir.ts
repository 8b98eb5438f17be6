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
import { LOCK_BACKENDS, RESOURCE_MODES, WORKLOADS, type LockBackend, tokenKindOf } from '../../workloads/vocabulary.js';
import { parseRunInfo } from '../report/run-files.js';

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
  const test = readTestJson(dir);
  const history = await readHistory(join(dir, 'history.jsonl'), { format: 'jsonl', tolerateTruncatedTail: true, ...(onWarning ? { onWarning } : {}) });
  const tokenKind = tokenKindOf(test.backend);
  const result = runCheckers(checkersFor(test.workload), history, { workload: test.workload, resource: test.resource, backend: test.backend, tokenKind });
  const previous = readPrevious(join(dir, 'results.json'));
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ valid: result.valid, deciding: result.deciding, durationMs: previous?.durationMs ?? null, checkers: result.verdicts }, null, 2) + '\n');
  return result;
}

/** test.json, with the three fields the checkers depend on checked (a hand-edited or damaged file is a 254, not a crash). */
function readTestJson(dir: string): TestJson {
  const fail = (detail: string): never => {
    throw new FencecheckError('bad-run-dir', `${dir}/test.json ${detail}`, {
      hint: 'A run directory holds test.json and history.jsonl as `fencecheck run` writes them.',
      exitCode: EXIT.badInput,
    });
  };
  let json: unknown;
  try {
    json = parseRunInfo(readFileSync(join(dir, 'test.json'), 'utf8'), join(dir, 'test.json'));
  } catch (err) {
    return fail(`cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const t = json as Record<string, unknown>;
  const oneOf = (key: string, allowed: readonly string[]): void => {
    if (typeof t[key] !== 'string' || !allowed.includes(t[key])) fail(`has \`${key}\` ${JSON.stringify(t[key]) ?? 'missing'}, expected one of ${allowed.join(', ')}`);
  };
  oneOf('workload', WORKLOADS);
  oneOf('backend', LOCK_BACKENDS);
  oneOf('resource', RESOURCE_MODES);
  return t as unknown as TestJson;
}

function readPrevious(path: string): { durationMs?: number } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { durationMs?: number };
  } catch {
    return undefined;
  }
}
