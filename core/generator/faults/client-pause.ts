/** client-pause: SIGSTOP of a client process (the holder, an acquirer, one worker's), SIGCONT at the window's end. */
import type { ClientVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';
import { isValueRecord } from '../../history/op.js';

export type ClientPauseWindow = Span & { fault: 'client-pause'; target: ClientVictim };

export const clientPause: FaultKindSpec<ClientPauseWindow> = {
  kind: 'client-pause',
  what: 'a client process stopped (SIGSTOP) and resumed',
  // A client pause names the pid it stopped; a skipped pause is a client's, since only client faults wait for a victim.
  ops: { start: 'pause', stops: ['resume'], claims: (value, skipped) => skipped || (isValueRecord(value) && value['pid'] !== undefined), shade: 'pause' },
  seededLength: 'pause',
  seededDrawsNode: false,
  seeded: (span) => ({ ...span, fault: 'client-pause', target: { kind: 'holder' } }),
  scripted: (w, span, f) => ({ ...span, fault: 'client-pause', target: f.clientVictim(w['target']) }),
  huntEvents: ['holder-read', 'acquire', 'grant', 'mark', 'write', 'lease-ending', 'renew', 'held', 'time'],
  // Longer than the lease: the lock must pass on while the victim sleeps.
  hunted: (d) => ({ ...d.span(d.between(d.lease * 1.5, d.lease * 3)), fault: 'client-pause', target: d.client }),
};
