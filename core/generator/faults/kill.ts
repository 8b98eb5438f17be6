/** kill: SIGKILL of a server's process group, restarted with the same command line and data at the window's end. */
import type { ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

export type KillWindow = Span & { fault: 'kill'; target: ServerVictim };

export const kill: FaultKindSpec<KillWindow> = {
  kind: 'kill',
  what: 'a lock server killed (SIGKILL) and restarted',
  // `start` is what histories recorded before `restart` named the node's restart.
  ops: { start: 'kill', stops: ['restart', 'start'], shade: 'kill' },
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'kill', target: d.serverVictim() }),
  scripted: (w, span, f) => ({ ...span, fault: 'kill', target: f.serverVictim(w['target']) }),
  // Right after a grant: the lock not yet replicated or written to disk.
  huntEvents: ['grant', 'held', 'time'],
  hunted: (d) => ({ ...d.span(d.between(1000, 4000)), fault: 'kill', target: d.server() }),
};
