/** loss: a share of the packets to and from a server dropped (nft numgen), both ways. */
import type { ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

/** The percentage of packets dropped to and from the target. */
export type LossWindow = Span & { fault: 'loss'; target: ServerVictim; lossPercent: number };

export const loss: FaultKindSpec<LossWindow> = {
  kind: 'loss',
  what: 'packets to and from a lock server dropped at random',
  ops: { start: 'start-loss', stops: ['stop-loss'], shade: 'loss' },
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'loss', target: d.serverVictim(), lossPercent: d.amounts.lossPercent }),
  scripted: (w, span, f) => {
    const p = w['lossPercent'];
    return {
      ...span,
      fault: 'loss',
      target: f.serverVictim(w['target']),
      lossPercent: typeof p === 'number' && p > 0 && p <= 100 ? p : f.bad('lossPercent', 'a percentage in (0, 100]', p),
    };
  },
  huntEvents: ['held', 'acquire', 'time'],
  hunted: (d) => ({ ...d.span(d.between(d.lease * 2, d.lease * 4)), fault: 'loss', target: d.server(), lossPercent: d.between(30, 70) }),
};
