/** delay: a client's link to the resource or to the lock service slowed by a delay proxy. */
import type { ClientVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

/** ms added to each packet on one of the client's links, to the resource or to the lock service. */
export type DelayWindow = Span & { fault: 'delay'; target: ClientVictim; link: 'resource' | 'lock'; delayMs: number };

export const delay: FaultKindSpec<DelayWindow> = {
  kind: 'delay',
  what: "a client's link to the resource or the lock service delayed",
  ops: { start: 'start-delay', stops: ['stop-delay'], shade: 'delay' },
  // It needs a delay proxy on one chosen link, which the named scenarios' scripts put there.
  unscheduled: {
    why: 'the delay nemesis is driven by the named scenarios (`fencecheck scenario`), which put a delay proxy on one chosen link',
    hint: 'The delay is driven by the named scenarios, which put a proxy on one link: `fencecheck scenario run S2` (see `fencecheck scenario list`).',
  },
  seededLength: 'duration',
  // The seeded window draws a server victim it does not use (kept: the other streams keep their sequence).
  seededDrawsNode: true,
  seeded: (span, d) => {
    d.serverVictim();
    return { ...span, fault: 'delay', target: { kind: 'holder' }, link: 'resource', delayMs: d.amounts.delayMs };
  },
  scripted: (w, span, f) => {
    const link = w['link'] === 'resource' || w['link'] === 'lock' ? w['link'] : f.bad('link', 'resource or lock', w['link']);
    return { ...span, fault: 'delay', target: f.clientVictim(w['target']), link, delayMs: f.ms('delayMs', w['delayMs']) };
  },
  // A delay begun after the read lands the write late (a write already sent has gone); one begun in an acquire lands the mark late.
  huntEvents: ['acquire', 'holder-read', 'write', 'mark', 'grant', 'renew', 'held', 'time'],
  hunted: (d) => {
    // Either link at any moment: the lock link in an acquire delays the grant past its validity, the resource link the mark or write after it.
    const link = d.rng.pick(['lock', 'resource'] as const);
    const delayMs = d.between(d.lease * 0.5, d.lease * 1.5);
    return { ...d.span(delayMs + d.lease), fault: 'delay', target: d.client, link, delayMs };
  },
};
