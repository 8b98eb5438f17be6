/**
 * The faults on one server node: server-pause (SIGSTOP / SIGCONT), kill
 * (kill -9, restarted at the window's end), clock (an offset through the
 * clock library, back to 0 at the end) and loss (packet loss on its links).
 * Each is the same shape: find the node the window aims at, do the fault,
 * undo it at the end; `onNode` is that shape once.
 */
import type { Value } from '../../../core/history/op.js';
import type { FaultKind, FaultWindow } from '../../../core/generator/faults/registry.js';
import type { NemesisPort } from '../ports.js';
import type { NemesisRunnerContext } from '../nemesis-context.js';
import { NO_NODE, type FaultModule } from './strike.js';
import { victimNode } from './victims.js';

/** What a node fault records and does, and how it is undone. */
interface NodeFault {
  value: Value;
  act: () => Promise<void>;
  undoValue: Value;
  undo: () => Promise<void>;
}

type ServerWindow<K extends FaultKind> = FaultWindow & { fault: K; target: Parameters<typeof victimNode>[1] };

function onNode<K extends 'server-pause' | 'kill' | 'loss'>(
  fault: (node: string, n: NemesisPort, w: ServerWindow<K>, ctx: NemesisRunnerContext) => NodeFault,
): FaultModule<K> {
  return {
    async strike(w, s) {
      const node = await victimNode(s.ctx, w.target);
      if (!node) return s.skipped(s.start, NO_NODE);
      const f = fault(node, s.ctx.nemesis, w as ServerWindow<K>, s.ctx);
      if (!(await s.attempt(s.start, f.value, f.act))) return undefined;
      return async () => void (await s.attempt(s.stop, f.undoValue, f.undo));
    },
  };
}

export const serverPause = onNode<'server-pause'>((node, n) => ({
  value: { target: node },
  act: () => n.pause(node),
  undoValue: { target: node },
  undo: () => n.resume(node),
}));

export const kill = onNode<'kill'>((node, n) => ({ value: node, act: () => n.kill(node), undoValue: node, undo: () => n.restart(node) }));

/**
 * clock: the offset on its node, or on each node of a set at once (each its own recorded
 * clock-offset, as the report and the evidence read them); undone on the nodes it reached.
 */
export const clock: FaultModule<'clock'> = {
  async strike(w, s) {
    const n = s.ctx.nemesis;
    const nodes = w.target.kind === 'nodes' ? w.target.nodes : [await victimNode(s.ctx, w.target)].filter((x): x is string => x !== undefined);
    if (nodes.length === 0) return s.skipped(s.start, NO_NODE);
    const offset = (node: string, ms: number) => s.attempt(s.start, { target: node, ms }, () => n.clockOffset(node, ms));
    const struck = await Promise.all(nodes.map((node) => offset(node, w.offsetMs)));
    const reached = nodes.filter((_, i) => struck[i]);
    if (reached.length === 0) return undefined;
    return async () => void (await Promise.all(reached.map((node) => offset(node, 0))));
  },
};

export const loss = onNode<'loss'>((node, n, w, ctx) => {
  const others = n.clientHosts().concat(ctx.lockNodes.filter((x) => x !== node));
  const value = { target: node, percent: w.lossPercent };
  return { value, act: () => n.loss(node, others, w.lossPercent), undoValue: value, undo: () => n.loss(node, others, 0) };
});
