/**
 * `--script JSON` and `--proxies resource|lock|both` of `fencecheck run`: a
 * scripted fault timeline (faults aimed at lock events among them) and the
 * delay proxies its `delay` windows need. What a hunt try or a shrunk plan
 * replays with (run-options.ts writes them into the replay command).
 *
 * The script's text is kept as given and read once the workload is known: a
 * queue run's windows are its own (core/queue/queue-window.ts), a lock run's
 * are FaultWindows (parseScript); each reader refuses the other's with 254.
 */
import { Option, type Command } from 'commander';
import { parseScript } from '../../core/generator/parse-script.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { oneOf } from './parse-options.js';

export const PROXY_LINKS = ['resource', 'lock', 'both'] as const;

export function addScriptFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--script <json>',
        "a fault timeline as a JSON array of windows (replaces the seeded schedule of --nemesis; windows may wait for lock events: docs/hunt.md; a queue run's: docs/queues.md)",
      ),
    )
    .addOption(
      new Option('--proxies <links>', `delay proxies on each client's links, for delay windows: ${PROXY_LINKS.join(', ')}`).argParser(
        oneOf('--proxies', PROXY_LINKS),
      ),
    );
}

/** The script options out of commander's parsed flags (absent when not given). */
export function scriptOptions(flags: Record<string, unknown>): Pick<RunOptions, 'script' | 'proxies'> {
  const script = typeof flags['script'] === 'string' ? parseScript(flags['script']) : undefined;
  const proxies = flags['proxies'] as RunOptions['proxies'];
  return { ...(script !== undefined ? { script } : {}), ...(proxies !== undefined ? { proxies } : {}) };
}
