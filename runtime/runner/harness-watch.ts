/**
 * The parts of the harness a run depends on but no fault is meant to touch
 * (the delay proxies on the clients' links, the PostgreSQL server holding
 * the resource), watched while the run goes on. One that dies (killed by
 * someone, crashed, out of memory) changes what the run tests without any
 * fault window saying so: its clients lose their link, the final read fails,
 * and the verdict would read as if the run had gone as planned.
 *
 * So a death is recorded in the history at the moment it is seen, as a
 * nemesis `harness-died` info carrying the error (what died, how, its log):
 * core/checkers/lock/evidence.ts counts it as a failed fault, and a valid run
 * with one is untested, not safe. The lock servers are not watched here:
 * the nemesis kills and restarts them, and a failed restart is recorded by
 * the nemesis itself. Nor is the resource's server when the run's faults
 * aim at it (`--backend none`: with no lock service, `kill` and
 * `server-pause` strike PostgreSQL): its death is then a planned fault, and
 * watching it turned every kill into a "harness died" and the run untested.
 */
import type { Cluster } from '../cluster/cluster.js';
import type { DelayProxy } from '../nemesis/delay-proxy-handle.js';
import { HARNESS_DIED } from '../../core/checkers/lock/evidence.js';
import type { Recorder } from './recorder.js';

export interface WatchedPart {
  /** A short name for the op's value: `proxy c3->pg1`, `pg1`. */
  name: string;
  /** Why it is gone, naming it and its log, or undefined while it runs. */
  died(): string | undefined;
}

const POLL_MS = 250;

/** Poll the parts; each death is recorded once and logged. Returns the stop function (call it before teardown). */
export function watchHarness(parts: readonly WatchedPart[], recorder: Recorder, log: (line: string) => void, pollMs = POLL_MS): () => void {
  const seen = new Set<string>();
  const poll = (): void => {
    for (const p of parts) {
      const why = seen.has(p.name) ? undefined : p.died();
      if (why === undefined) continue;
      seen.add(p.name);
      recorder.record('nemesis', 'info', HARNESS_DIED, { part: p.name }, { error: why });
      log(`harness: ${why}`);
    }
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    // A death between the last poll and the end of the run is still recorded.
    poll();
  };
}

/** What a lock run watches: every delay proxy, and the resource's server unless the faults aim at it (`resourceFaulted`). */
export function runHarnessParts(
  cluster: Pick<Cluster, 'node'>,
  proxies: ReadonlyMap<string, ReadonlyMap<string, DelayProxy>>,
  resourceNode: string,
  resourceFaulted = false,
): WatchedPart[] {
  const parts: WatchedPart[] = [];
  for (const [host, byNode] of proxies) for (const [node, proxy] of byNode) parts.push({ name: `proxy ${host}->${node}`, died: () => proxy.died() });
  if (resourceFaulted) return parts;
  const server = cluster.node(resourceNode);
  parts.push({
    name: resourceNode,
    died: () =>
      server.running
        ? undefined
        : `the resource's server ${resourceNode} (${server.backend}) is no longer running mid-run; every access and the final read fail; its log: ${server.logPath}`,
  });
  return parts;
}
