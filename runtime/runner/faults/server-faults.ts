/**
 * The faults on one server node: server-pause (SIGSTOP / SIGCONT), kill
 * (kill -9, restarted at the window's end), clock (an offset through the
 * clock library, back to 0 at the end) and loss (packet loss on its links).
 */
import { NO_NODE, type FaultModule } from './strike.js';
import { victimNode } from './victims.js';

export const serverPause: FaultModule<'server-pause'> = {
  startOp: 'pause',
  async strike(w, s) {
    const node = await victimNode(s.ctx, w.target);
    if (!node) return s.skipped('pause', NO_NODE);
    const n = s.ctx.nemesis;
    if (!(await s.attempt('pause', { target: node }, () => n.pause(node)))) return undefined;
    return async () => void (await s.attempt('resume', { target: node }, () => n.resume(node)));
  },
};

export const kill: FaultModule<'kill'> = {
  startOp: 'kill',
  async strike(w, s) {
    const node = await victimNode(s.ctx, w.target);
    if (!node) return s.skipped('kill', NO_NODE);
    const n = s.ctx.nemesis;
    if (!(await s.attempt('kill', node, () => n.kill(node)))) return undefined;
    return async () => void (await s.attempt('restart', node, () => n.restart(node)));
  },
};

export const clock: FaultModule<'clock'> = {
  startOp: 'clock-offset',
  async strike(w, s) {
    const node = await victimNode(s.ctx, w.target);
    if (!node) return s.skipped('clock-offset', NO_NODE);
    const n = s.ctx.nemesis;
    const value = { target: node, ms: w.offsetMs };
    if (!(await s.attempt('clock-offset', value, () => n.clockOffset(node, w.offsetMs)))) return undefined;
    return async () => void (await s.attempt('clock-offset', { target: node, ms: 0 }, () => n.clockOffset(node, 0)));
  },
};

export const loss: FaultModule<'loss'> = {
  startOp: 'start-loss',
  async strike(w, s) {
    const node = await victimNode(s.ctx, w.target);
    if (!node) return s.skipped('start-loss', NO_NODE);
    const n = s.ctx.nemesis;
    const others = n.clientHosts().concat(s.ctx.lockNodes.filter((x) => x !== node));
    const value = { target: node, percent: w.lossPercent };
    if (!(await s.attempt('start-loss', value, () => n.loss(node, others, w.lossPercent)))) return undefined;
    return async () => void (await s.attempt('stop-loss', value, () => n.loss(node, others, 0)));
  },
};
