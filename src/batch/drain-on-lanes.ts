/**
 * A batch's runs drained on N lanes (`--parallel`): each lane takes the next
 * run of the group its cluster has (a backend: its warm cluster serves it
 * without a fresh start), else the next run in order. A lane that throws
 * (bad input, a batch stopped for its failures) stops the others after the
 * run each has under way, and its error is thrown once all have ended. With
 * one lane this is the plain loop, in order.
 */
export async function drainOnLanes<T>(
  items: readonly T[],
  lanes: number,
  groupOf: (item: T) => string,
  work: (item: T, lane: number) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  let stopping = false;
  const lane = async (n: number): Promise<void> => {
    let group: string | undefined;
    while (!stopping && queue.length > 0) {
      const at = Math.max(
        0,
        queue.findIndex((r) => groupOf(r) === group),
      );
      const item = queue.splice(at, 1)[0]!;
      group = groupOf(item);
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
