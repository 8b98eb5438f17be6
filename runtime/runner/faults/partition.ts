/** partition: a grudge (who cannot reach whom) made with nftables, healed at the window's end. */
import type { Value } from '../../../core/history/op.js';
import type { FaultModule } from './strike.js';
import { grudgeOf } from './victims.js';

export const partition: FaultModule<'partition'> = {
  async strike(w, s) {
    const grudge = await grudgeOf(s.ctx, w.target, s.fired);
    if (!grudge) return s.skipped(s.start, 'no partition to make: no node or client host to cut off');
    const n = s.ctx.nemesis;
    if (!(await s.attempt(s.start, grudge as Value, () => n.partition(grudge)))) return undefined;
    return async () => void (await s.attempt(s.stop, null, () => n.heal()));
  },
};
