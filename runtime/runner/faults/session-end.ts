/**
 * session-end: the lock server ends the holder's session (PostgreSQL:
 * pg_terminate_backend of the backend holding the advisory lock). It waits
 * for a holder as a client pause does, then ends whatever session holds the
 * lock at that moment; the info records the node and the backends ended. Ending none (the
 * holder released in between) is recorded as an error: a strike that ended
 * nothing tested nothing. Nothing is undone: a session does not come back,
 * the client opens a new one.
 */
import type { FaultModule } from './strike.js';
import { victimClient } from './victims.js';

export const sessionEnd: FaultModule<'session-end'> = {
  async strike(w, s) {
    const v = await victimClient(s.ctx, w.target, s.fired);
    if (!v) {
      s.done(s.start, { target: w.target.kind }, `no session to end: nobody held the lock within ${s.ctx.victimWaitMs} ms`);
      return undefined;
    }
    const value = { target: v.session.host, pid: v.session.pid, ...v.about };
    s.begin(s.start, value);
    try {
      const ended = await s.ctx.nemesis.endLockSessions();
      if (ended.pids.length === 0) {
        s.done(s.start, value, `no session held the lock on ${ended.node} any more`, { node: ended.node });
        return undefined;
      }
      s.done(s.start, value, undefined, { node: ended.node, backends: ended.pids });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      s.done(s.start, value, message);
      s.ctx.log(`nemesis: ${s.start} failed: ${message}`);
      return undefined;
    }
    return async () => undefined;
  },
};
