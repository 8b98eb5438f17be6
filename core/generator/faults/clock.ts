/** clock: a server's wall clock shifted by an offset (fc-clock.c, LD_PRELOAD), back to true time at the window's end. */
import type { FaultKindSpec } from './fault-kind.js';

export const clock: FaultKindSpec<'clock'> = {
  kind: 'clock',
  what: "a lock server's wall clock jumped forward or back",
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'clock', target: d.serverVictim(), offsetMs: d.signs.pick([1, -1]) * d.amounts.offsetMs }),
  scripted: (w, span, f) => {
    const offsetMs = typeof w['offsetMs'] === 'number' && Number.isFinite(w['offsetMs']) ? w['offsetMs'] : f.bad('offsetMs', 'a number of ms', w['offsetMs']);
    return { ...span, fault: 'clock', target: f.serverVictim(w['target']), offsetMs };
  },
  huntEvents: ['held', 'grant', 'time'],
  // A few leases forward: a held key expires early on that node.
  hunted: (d) => ({ ...d.span(d.between(d.lease, d.lease * 3)), fault: 'clock', target: d.server(), offsetMs: d.between(d.lease * 1.5, d.lease * 3) }),
};
