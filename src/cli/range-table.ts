/**
 * The numeric flags and their ranges as a Markdown table, from the ranges the parsers use
 * (RUN_RANGES, FLAG_RANGES): README.md carries this table, and a test keeps the two equal.
 */
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { rangeHelp, type NumberRange } from '../../core/number-range.js';
import { FLAG_RANGES } from './parse-options.js';

const RUN_AND_COMPARE = 'run, compare';

/** [flag, the commands that take it, its range]. */
function rows(): [string, string, NumberRange][] {
  return [
    ['--time-limit', `${RUN_AND_COMPARE}, hunt, npm run libraries`, RUN_RANGES.timeLimitS],
    ['--clients', `${RUN_AND_COMPARE}, hunt`, RUN_RANGES.clients],
    ['--ttl-ms', `${RUN_AND_COMPARE}, client-check, hunt`, RUN_RANGES.ttlMs],
    ['--hold-ms', RUN_AND_COMPARE, RUN_RANGES.holdMs],
    ['--rate', RUN_AND_COMPARE, RUN_RANGES.rate],
    ['--interval-ms', RUN_AND_COMPARE, RUN_RANGES.intervalMs],
    ['--duration-ms', RUN_AND_COMPARE, RUN_RANGES.durationMs],
    ['--recover-ms', RUN_AND_COMPARE, RUN_RANGES.recoverMs],
    ['--call-timeout-ms', `${RUN_AND_COMPARE}, client-check`, RUN_RANGES.callTimeoutMs],
    ['--wait-replicas', `${RUN_AND_COMPARE} (redis-sentinel only)`, RUN_RANGES.waitReplicas],
    ['--min-replicas', `${RUN_AND_COMPARE} (redis-sentinel only)`, RUN_RANGES.minReplicas],
    ['--idle-tx-timeout-ms', `${RUN_AND_COMPARE} (for-update)`, RUN_RANGES.idleTxTimeoutMs],
    ['--seed', 'run, hunt', FLAG_RANGES['--seed']],
    ['--first-seed', 'compare, scenario run', FLAG_RANGES['--first-seed']],
    ['--seeds', 'compare, scenario run, npm run libraries', FLAG_RANGES['--seeds']],
    ['--busy-timeout-ms', 'run, up, client-check', FLAG_RANGES['--busy-timeout-ms']],
    ['--timeout-ms', 'check', FLAG_RANGES['--timeout-ms']],
    ['--max-search-mb', 'check', FLAG_RANGES['--max-search-mb']],
    ['--max-history-mb', 'check', FLAG_RANGES['--max-history-mb']],
    ['--max-line-mb', 'check', FLAG_RANGES['--max-line-mb']],
    ['--threads', 'check', FLAG_RANGES['--threads']],
    ['--port', 'serve', FLAG_RANGES['--port']],
    ['--sentinel-min-replicas', 'up', FLAG_RANGES['--sentinel-min-replicas']],
    ['--zk-tick-ms', 'up', FLAG_RANGES['--zk-tick-ms']],
    ['--ready-timeout-ms', 'up', FLAG_RANGES['--ready-timeout-ms']],
    ['--budget-runs', 'hunt', FLAG_RANGES['--budget-runs']],
    ['--until-ruled-out', 'hunt, npm run libraries', FLAG_RANGES['--until-ruled-out']],
    ['--parallel', 'hunt, shrink, compare, scenario run, npm run libraries', FLAG_RANGES['--parallel']],
    ['--hunt', 'npm run libraries', FLAG_RANGES['--budget-runs']],
    ['--runs', 'shrink', FLAG_RANGES['--runs']],
    ['--min-fails', 'shrink', FLAG_RANGES['--min-fails']],
    ['--max-candidates', 'shrink', FLAG_RANGES['--max-candidates']],
    ['--shrink-runs', 'hunt', FLAG_RANGES['--shrink-runs']],
    ['--shrink-min-fails', 'hunt', FLAG_RANGES['--shrink-min-fails']],
    ['--shrink-max-candidates', 'hunt', FLAG_RANGES['--shrink-max-candidates']],
    ['--shrink', 'npm run libraries', FLAG_RANGES['--shrink']],
    ['--weigh', 'npm run queues', FLAG_RANGES['--weigh']],
  ];
}

export function rangeTableMarkdown(): string {
  const lines = ['| flag | commands | range |', '|---|---|---|'];
  for (const [flag, commands, range] of rows())
    lines.push(`| \`${flag}\` | ${commands} | ${range.integer === false ? 'a number' : 'an integer'}, ${rangeHelp(range)} |`);
  return lines.join('\n');
}
