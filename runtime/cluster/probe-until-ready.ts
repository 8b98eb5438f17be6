/**
 * probeUntilReady: a server's readiness probe every 50 ms until it answers,
 * failing at once when the server is gone (why, in words) and with the last
 * probe's error when the time is up. Shared by both providers' server nodes.
 */
export interface ProbeUntilReady {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Why the server is not running (exited, never started), or undefined while it runs. */
  gone(): Promise<string | undefined>;
  probe(): Promise<void>;
  /** The error to throw: what happened, and the last probe's error. */
  failure(what: string, cause?: unknown): Promise<Error>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function probeUntilReady(o: ProbeUntilReady): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  let lastError: unknown;
  for (;;) {
    o.signal?.throwIfAborted();
    const gone = await o.gone();
    if (gone !== undefined) throw await o.failure(gone);
    try {
      await o.probe();
      return;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) throw await o.failure(`did not become ready within ${o.timeoutMs} ms`, lastError);
    await sleep(50);
  }
}
