/**
 * `within(p, ms)`: `p`'s value, or undefined once `ms` have passed, whichever
 * comes first. Why not `Promise.race([p, sleep(ms)])`: the losing sleep's
 * timer stays armed and keeps Node's event loop alive until it fires, so a
 * run that finished would wait out the longest such timer before exiting
 * (a 30 s client-ready wait made every run exit 30 s after its report).
 * Here the timer is cleared as soon as `p` settles.
 */
export function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
