/** client-pause: SIGSTOP of a client process (the holder, an acquirer, one worker's), SIGCONT at the window's end. */
import type { FaultKindSpec } from './fault-kind.js';

export const clientPause: FaultKindSpec<'client-pause'> = {
  kind: 'client-pause',
  what: 'a client process stopped (SIGSTOP) and resumed',
  seededLength: 'pause',
  seededDrawsNode: false,
  seeded: (span) => ({ ...span, fault: 'client-pause', target: { kind: 'holder' } }),
  scripted: (w, span, f) => ({ ...span, fault: 'client-pause', target: f.clientVictim(w['target']) }),
  huntEvents: ['holder-read', 'acquire', 'grant', 'mark', 'write', 'lease-ending', 'renew', 'held', 'time'],
  // Longer than the lease: the lock must pass on while the victim sleeps.
  hunted: (d) => ({ ...d.span(d.between(d.lease * 1.5, d.lease * 3)), fault: 'client-pause', target: d.client }),
};
