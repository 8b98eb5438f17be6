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
  startOp: 'end-session',
  async strike(w, s) {
    const v = await victimClient(s.ctx, w.target, s.fired);
    if (!v) {
      s.done('end-session', { target: w.target.kind }, `no session to end: nobody held the lock within ${s.ctx.victimWaitMs} ms`);
      return undefined;
    }
    const value = { target: v.session.host, pid: v.session.pid, ...v.about };
    s.begin('end-session', value);
    try {
      const ended = await s.ctx.nemesis.endLockSessions();
      if (ended.pids.length === 0) {
        s.done('end-session', value, `no session held the lock on ${ended.node} any more`, { node: ended.node });
        return undefined;
      }
      s.done('end-session', value, undefined, { node: ended.node, backends: ended.pids });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      s.done('end-session', value, message);
      s.ctx.log(`nemesis: end-session failed: ${message}`);
      return undefined;
    }
    return async () => undefined;
  },
};
