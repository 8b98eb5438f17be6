/** client-pause: SIGSTOP of a client process (the holder, an acquirer, a worker), SIGCONT at the window's end. */
import type { FaultModule } from './strike.js';
import { victimClient } from './victims.js';

export const clientPause: FaultModule<'client-pause'> = {
  async strike(w, s) {
    const v = await victimClient(s.ctx, w.target, s.fired);
    if (!v) {
      s.done(s.start, { target: w.target.kind }, `no client to pause: nobody held the lock or was acquiring within ${s.ctx.victimWaitMs} ms`);
      return undefined;
    }
    const value = { target: v.session.host, pid: v.session.pid, ...v.about };
    if (!(await s.attempt(s.start, value, () => v.session.pause()))) return undefined;
    return async () => void (await s.attempt(s.stop, value, () => v.session.resume()));
  },
};
