/**
 * session-end: the lock server ends the session that holds the lock, and the
 * holder's process lives on without being told. A session lock (PostgreSQL's
 * advisory locks) has no lease for a pause to outlast: the lock goes only with
 * its session, and a session ends under a live holder when the server or
 * something between ends it (`idle_session_timeout`, an operator's
 * `pg_terminate_backend`, a pooler or a middlebox dropping an idle
 * connection). The holder learns of it at its next statement on that session,
 * if it makes one; its writes to the resource go through another connection.
 */
import type { ClientVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

/** The lock server ends the holder's session (PostgreSQL: pg_terminate_backend); the holder's process lives on, not told. */
export type SessionEndWindow = Span & { fault: 'session-end'; target: ClientVictim };

export const sessionEnd: FaultKindSpec<SessionEndWindow> = {
  kind: 'session-end',
  what: "the holder's lock session ended by the server (its process lives on)",
  // A moment: the session ends and nothing is undone.
  ops: { start: 'end-session', stops: [], shade: 'session' },
  needs: {
    backend: 'sessionLock',
    why: 'the session-end fault ends the server session a lock lives in',
    lacking: (b) => `${b}'s lock is a key or a lease, not a session`,
  },
  seededLength: 'duration',
  seededDrawsNode: false,
  seeded: (span) => ({ ...span, fault: 'session-end', target: { kind: 'holder' } }),
  scripted: (w, span, f) => ({ ...span, fault: 'session-end', target: f.clientVictim(w['target']) }),
  // While a holder is between its read and its write, or right after its grant: the moments its writes still follow.
  huntEvents: ['holder-read', 'grant', 'held', 'time'],
  // The window only spaces the faults: the session ends at its start and nothing is undone at its end.
  hunted: (d) => ({ ...d.span(d.between(500, Math.max(1000, d.lease))), fault: 'session-end', target: d.client }),
};
