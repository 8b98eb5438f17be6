/** server-pause: SIGSTOP of a server's process group (the leader or a named node), SIGCONT at the window's end. */
import type { ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

export type ServerPauseWindow = Span & { fault: 'server-pause'; target: ServerVictim };

export const serverPause: FaultKindSpec<ServerPauseWindow> = {
  kind: 'server-pause',
  what: 'a lock server stopped (SIGSTOP) and resumed',
  ops: { start: 'pause', stops: ['resume'], shade: 'pause' },
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'server-pause', target: d.serverVictim() }),
  scripted: (w, span, f) => ({ ...span, fault: 'server-pause', target: f.serverVictim(w['target']) }),
  huntEvents: ['grant', 'acquire', 'held', 'time'],
  hunted: (d) => ({ ...d.span(d.between(d.lease, d.lease * 3)), fault: 'server-pause', target: d.server() }),
};
