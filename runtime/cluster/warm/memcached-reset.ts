/**
 * memcached (the tooz lock service): every item flushed, and the clean check
 * lists what is left with `lru_crawler metadump all`, which skips flushed
 * items (checked by hand on memcached 1.6.18: two keys listed, none after
 * `flush_all`). `stats curr_items` would not do: it still counts flushed
 * items until they are touched.
 */
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { tcpExchange } from '../probes.js';
import { messageOf, type BackendReset } from './backend-reset.js';

function ask(node: NodePlan, command: string, end: RegExp): Promise<string> {
  return tcpExchange(node.ip, node.port, `${command}\r\n`, { timeoutMs: 2000, done: (a) => end.test(a) });
}

/** The keys a metadump lists (pure). */
export function metadumpKeys(answer: string): string[] {
  return answer
    .split(/\r?\n/)
    .filter((l) => l.startsWith('key='))
    .map((l) => decodeURIComponent(l.slice(4).split(' ')[0]!));
}

export const memcachedReset: BackendReset = {
  async reset({ nodes }) {
    await Promise.all(
      nodes.map(async (n) => {
        const answer = await ask(n, 'flush_all', /\r\n$/);
        if (!answer.startsWith('OK')) throw new Error(`memcached ${n.name}: flush_all answered ${JSON.stringify(answer.trim())}`);
      }),
    );
  },
  async check({ nodes }) {
    const problems = await Promise.all(
      nodes.map(async (n) => {
        try {
          const keys = metadumpKeys(await ask(n, 'lru_crawler metadump all', /(^|\n)END\r\n$/));
          return keys.length === 0 ? undefined : `${n.name}: ${keys.length} item(s) left (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''})`;
        } catch (err) {
          return `${n.name}: not answering (${messageOf(err)})`;
        }
      }),
    );
    return problems.filter((p): p is string => p !== undefined);
  },
};
