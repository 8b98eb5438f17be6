/**
 * clock: servers' wall clocks shifted by an offset (fc-clock.c, LD_PRELOAD),
 * back to true time at the window's end. One server, or (a hunt's draw, or a
 * script's `{"kind":"nodes"}`) several at once: Jepsen's clock nemesis bumps a
 * random subset of the nodes, as one bad time source several of them follow
 * does. Why a hunt needs the set: Redlock forgets a held lock only on a
 * majority of its nodes, so a jump on one node breaks it only beside a
 * partition that gives two clients different majorities, a joint draw of
 * two windows the search rarely makes; a jump on a majority is one window.
 */
import type { Prng } from '../../random/prng.js';
import type { NodeSet, ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';
import { isValueRecord } from '../../history/op.js';

/** The wall-clock offset to apply, ms, forward or back. */
export type ClockWindow = Span & { fault: 'clock'; target: ServerVictim | NodeSet; offsetMs: number };

export const clock: FaultKindSpec<ClockWindow> = {
  kind: 'clock',
  what: "lock servers' wall clocks jumped forward or back",
  // The offset set back to 0 at the window's end is the same op.
  ops: { start: 'clock-offset', stops: [], undoes: (value) => isValueRecord(value) && value['ms'] === 0, shade: 'clock' },
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'clock', target: d.serverVictim(), offsetMs: d.signs.pick([1, -1]) * d.amounts.offsetMs }),
  scripted: (w, span, f) => {
    const offsetMs = typeof w['offsetMs'] === 'number' && Number.isFinite(w['offsetMs']) ? w['offsetMs'] : f.bad('offsetMs', 'a number of ms', w['offsetMs']);
    return { ...span, fault: 'clock', target: f.serversVictim(w['target']), offsetMs };
  },
  huntEvents: ['held', 'grant', 'time'],
  // A few leases forward: a held key expires early on that node (those nodes).
  hunted: (d) => {
    const span = d.span(d.between(d.lease, d.lease * 3));
    const server = d.server();
    const offsetMs = d.between(d.lease * 1.5, d.lease * 3);
    // Its own stream (labelled by the window's start, so two windows of a try differ): every earlier draw of a hunt seed stays as it was.
    return { ...span, fault: 'clock', target: widened(server, d.nodes, d.rng.fork(`clock-nodes@${span.at}`)), offsetMs };
  },
};

/** Half the time, with three servers or more: the drawn server and one to all of the others, struck together. */
export function widened(server: ServerVictim, nodes: readonly string[], rng: Prng): ServerVictim | NodeSet {
  if (nodes.length < 3 || rng.float() < 0.5) return server;
  const first = server.kind === 'node' && nodes.includes(server.node) ? server.node : rng.pick(nodes);
  const others = nodes
    .filter((n) => n !== first)
    .map((n) => [rng.float(), n] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, n]) => n);
  return { kind: 'nodes', nodes: [first, ...others.slice(0, rng.int(1, others.length))] };
}
