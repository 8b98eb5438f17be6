/** delay: the delay proxies on a client's links to the resource or to the lock service slowed, back to 0 at the end. */
import type { DelayLink } from '../ports.js';
import type { FaultModule } from './strike.js';
import { victimClient } from './victims.js';

export const delay: FaultModule<'delay'> = {
  async strike(w, s) {
    const v = await victimClient(s.ctx, w.target, s.fired);
    const host = v?.session.host;
    const proxies = host ? s.ctx.nemesis.delayLinks(host) : undefined;
    const link = w.link;
    const chosen = [...(proxies ?? new Map<string, DelayLink>())].filter(([node]) =>
      link === 'resource' ? node === s.ctx.resourceNode : node !== s.ctx.resourceNode,
    );
    const value = { target: host ?? null, link, ms: w.delayMs };
    if (chosen.length === 0) {
      const why = !v
        ? `no client to delay: nobody held the lock or was acquiring within ${s.ctx.victimWaitMs} ms`
        : 'no delay proxy on that link (the run must be started with proxies)';
      s.done(s.start, value, why);
      return undefined;
    }
    const set = (ms: number) => async () => void (await Promise.all(chosen.map(([, p]) => p.setDelay(ms))));
    if (!(await s.attempt(s.start, value, set(w.delayMs)))) return undefined;
    return async () => void (await s.attempt(s.stop, value, set(0)));
  },
};
