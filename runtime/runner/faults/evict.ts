/**
 * evict: memory pressure on a cache node. `start-evict` once the node evicts
 * (the fault is then in force), each lock-service key it evicts as an
 * `evicted` op at that moment, and `stop-evict` carrying the window's counts
 * (evicted keys, the lock keys among them, fillers written): the run's fault
 * record.
 */
import { NO_NODE, type FaultModule } from './strike.js';
import { victimNode } from './victims.js';

export const evict: FaultModule<'evict'> = {
  async strike(w, s) {
    const { ctx } = s;
    const node = await victimNode(ctx, w.target);
    if (!node) {
      s.done(s.start, { target: w.target.kind }, NO_NODE);
      return undefined;
    }
    const value = { target: node, policy: w.policy };
    ctx.recorder.record('nemesis', 'invoke', s.start, value);
    const onKey = (key: string): void => void ctx.recorder.record('nemesis', 'info', 'evicted', { target: node, key });
    try {
      const started = await ctx.nemesis.evict(node, w.policy, onKey);
      ctx.recorder.record('nemesis', 'info', s.start, value, { maxmemory: started.maxmemoryBytes, used_memory: started.usedMemoryBytes });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      s.done(s.start, value, message);
      ctx.log(`nemesis: ${s.start} failed: ${message}`);
      return undefined;
    }
    return async () => {
      ctx.recorder.record('nemesis', 'invoke', s.stop, value);
      try {
        const summary = await ctx.nemesis.stopEvict(node);
        ctx.recorder.record('nemesis', 'info', s.stop, {
          ...value,
          evicted_keys: summary.evictedKeys,
          lock_keys_evicted: summary.lockKeysEvicted,
          fillers: summary.fillersWritten,
          ...(summary.logLinesLost === undefined ? {} : { eviction_lines_lost: summary.logLinesLost }),
        });
        if ((summary.logLinesLost ?? 0) > 0)
          ctx.log(
            `nemesis: ${node} dropped ${summary.logLinesLost} eviction log line(s) in this window: the lock keys it evicted may be more than the history records`,
          );
      } catch (err) {
        s.done(s.stop, value, err instanceof Error ? err.message : String(err));
      }
    };
  },
};
