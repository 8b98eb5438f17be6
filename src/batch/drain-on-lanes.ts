/**
 * A batch's runs drained on N lanes (`--parallel`): each lane keeps to one
 * group (a backend: its warm cluster serves the group's runs without a fresh
 * start) while the group has runs queued. A lane that needs a new group
 * (at the start, or its group drained) takes the group no other lane is on
 * with the most runs queued, so the lanes split the groups between them and
 * the large ones start first (the lanes end close together). When every
 * group left is another lane's, it joins the one with the most runs queued
 * per lane on it, if that group has more runs queued than lanes on it:
 * joining for the last run costs a cluster start to save the wait for a
 * run already under way, and lost about a second in most compares; the
 * lane ends instead, and its pool with it. Within a group, runs go in the
 * order given.
 *
 * Measured on `npm run compare` (11 runs in 4 backends, 2 lanes): taking
 * the next run in order instead made both lanes start on the same backend
 * and switch cluster 3 times each (41.8 s); with this, twice each.
 *
 * A lane that throws (bad input, a batch stopped for its failures) stops
 * the others after the run each has under way, and its error is thrown once
 * all have ended. With one lane this is the plain loop, in the order given.
 */
export async function drainOnLanes<T>(
  items: readonly T[],
  lanes: number,
  groupOf: (item: T) => string,
  work: (item: T, lane: number) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const groups: (string | undefined)[] = [];
  let stopping = false;
  const lane = async (n: number): Promise<void> => {
    while (!stopping && queue.length > 0) {
      const others = groups.filter((g, i): g is string => i !== n && g !== undefined);
      // One lane keeps the order given (a dry run's list of runs), which already runs group by group.
      const at = lanes === 1 ? 0 : nextItemIndex(queue.map(groupOf), groups[n], others);
      if (at < 0) break;
      const item = queue.splice(at, 1)[0]!;
      groups[n] = groupOf(item);
      await work(item, n);
    }
  };
  const ended = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(lanes, queue.length)) }, (_, n) =>
      lane(n).catch((err: unknown) => {
        stopping = true;
        throw err;
      }),
    ),
  );
  for (const r of ended) if (r.status === 'rejected') throw r.reason;
}

/**
 * Which queued run a lane takes (pure): the first of its own group; else the first of the group no other lane is on
 * with the most runs queued; else the first of the group with the most runs queued per lane on it, when it has more
 * runs queued than lanes on it; else none (-1). Ties go to the group queued first.
 */
export function nextItemIndex(queuedGroups: readonly string[], own: string | undefined, othersGroups: readonly string[]): number {
  const mine = own === undefined ? -1 : queuedGroups.indexOf(own);
  if (mine >= 0) return mine;
  const counts = new Map<string, number>();
  for (const g of queuedGroups) counts.set(g, (counts.get(g) ?? 0) + 1);
  const groups = [...counts.keys()];
  const lanesOn = (g: string): number => othersGroups.filter((o) => o === g).length;
  const group =
    highest(
      groups.filter((g) => lanesOn(g) === 0),
      (g) => counts.get(g)!,
    ) ??
    highest(
      groups.filter((g) => counts.get(g)! > lanesOn(g)),
      (g) => counts.get(g)! / lanesOn(g),
    );
  return group === undefined ? -1 : queuedGroups.indexOf(group);
}

/** The candidate with the highest score, the first of equals; undefined for none. */
function highest(candidates: readonly string[], score: (g: string) => number): string | undefined {
  return candidates.reduce<string | undefined>((best, g) => (best === undefined || score(g) > score(best) ? g : best), undefined);
}
