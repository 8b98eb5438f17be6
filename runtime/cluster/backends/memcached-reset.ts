/**
 * memcached (the tooz lock service): every item flushed, and the clean check
 * lists what is left with `lru_crawler metadump all`, which skips flushed
 * items (checked by hand on memcached 1.6.18: two keys listed, none after
 * `flush_all`). `stats curr_items` would not do: it still counts flushed
 * items until they are touched. The evict fault's settings back as the node
 * starts (its memory limit, the slab mover, -vv): its stop() restores them,
 * but a window that could not stop would leave the next run an 8-MB cache.
 */
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { tcpExchange } from '../probes.js';
import { messageOf, type BackendReset } from '../../hosts/driver.js';
import { MEMCACHED_MEMORY_MB } from './memcached.js';
import { parseStats } from '../../../core/generator/memcached-eviction.js';

/** The settings the evict fault changes, as memcachedArgs starts the node: `stats settings` names and the command that sets each. */
const PLANNED: readonly { stat: string; value: string; set: string }[] = [
  { stat: 'maxbytes', value: String(MEMCACHED_MEMORY_MB * 1024 * 1024), set: `cache_memlimit ${MEMCACHED_MEMORY_MB}` },
  { stat: 'slab_automove', value: '1', set: 'slabs automove 1' },
  { stat: 'verbosity', value: '2', set: 'verbosity 2' },
];

/** A node's settings that differ from the planned ones (pure): each a problem line. */
export function memcachedSettingProblems(node: string, stats: Record<string, string>): string[] {
  return PLANNED.filter((p) => stats[p.stat] !== p.value).map(
    (p) => `${node}: ${p.stat} is ${stats[p.stat] ?? 'missing'}, planned ${p.value} (an evict window left it)`,
  );
}

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
        for (const command of [...PLANNED.map((p) => p.set), 'flush_all']) {
          const answer = await ask(n, command, /\r\n$/);
          if (!answer.startsWith('OK')) throw new Error(`memcached ${n.name}: ${command} answered ${JSON.stringify(answer.trim())}`);
        }
      }),
    );
  },
  async check({ nodes }) {
    const problems = await Promise.all(
      nodes.map(async (n) => {
        try {
          const keys = metadumpKeys(await ask(n, 'lru_crawler metadump all', /(^|\n)END\r\n$/));
          const settings = memcachedSettingProblems(n.name, parseStats(await ask(n, 'stats settings', /(^|\n)END\r\n$/)));
          const left = keys.length === 0 ? [] : [`${n.name}: ${keys.length} item(s) left (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''})`];
          return [...left, ...settings].join('; ') || undefined;
        } catch (err) {
          return `${n.name}: not answering (${messageOf(err)})`;
        }
      }),
    );
    return problems.filter((p): p is string => p !== undefined);
  },
};
