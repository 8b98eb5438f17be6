/**
 * The `evict` fault on a Redis node (./eviction.ts says why and how): the
 * harness connects from the control namespace, saves the three settings it
 * changes, sets a memory limit and an eviction policy, subscribes to the
 * evicted-key notifications, and writes fillers until `stop()`, which puts
 * every setting back and deletes the fillers still there.
 *
 * `start()` resolves once the server has evicted its first key (the cache is
 * full: the fault is in force), or rejects after `startTimeoutMs` when it
 * never does (a paused or unreachable node): a fault that did nothing must
 * not be recorded as applied.
 */
import { EvictionTally } from './eviction-tally.js';
import { Redis } from 'ioredis';
import { parseInfo } from '../clients/sentinel-probes.js';
import { FILLER_PREFIX, pressurePlan, type EvictPolicy, type PressurePlan } from '../../core/generator/eviction.js';

const EVICTED_CHANNEL = '__keyevent@0__:evicted';
const SAVED = ['maxmemory', 'maxmemory-policy', 'notify-keyspace-events'] as const;

export interface PressureStarted {
  maxmemoryBytes: number;
  usedMemoryBytes: number;
}

export interface PressureSummary {
  evictedKeys: number;
  /** Evicted keys that were not fillers (the lock service's own), each with how often (the `evicted` ops give the order). */
  lockKeysEvicted: Record<string, number>;
  fillersWritten: number;
  /** memcached: eviction log lines the cache dropped in the window (its `stats`); the lock keys evicted may then be more than counted. Redis's notifications drop none. */
  logLinesLost?: number;
}

const connect = (host: string, port: number, timeoutMs: number): Redis => {
  const r = new Redis({
    host,
    port,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableReadyCheck: false,
    retryStrategy: () => null,
  });
  r.on('error', () => undefined);
  return r;
};

export class RedisPressure {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private saved: Record<string, string> = {};
  private evictedAtStart = 0;
  private written = 0;
  private timer: NodeJS.Timeout | undefined;
  private filling: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly tally: EvictionTally;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly policy: EvictPolicy,
    /** Called as each lock-service key is evicted (the runner records it in the history at that moment). */
    onLockKeyEvicted: (key: string) => void,
    private readonly timeoutMs = 1000,
  ) {
    this.tally = new EvictionTally(onLockKeyEvicted);
    this.cmd = connect(host, port, timeoutMs);
    this.sub = connect(host, port, timeoutMs);
  }

  async start(startTimeoutMs = 3000): Promise<PressureStarted> {
    await Promise.all([this.cmd.connect(), this.sub.connect()]);
    for (const k of SAVED) this.saved[k] = ((await this.cmd.config('GET', k)) as string[])[1] ?? '';
    this.evictedAtStart = evictedKeys(parseInfo(await this.cmd.info('stats')));
    const used = Number(parseInfo(await this.cmd.info('memory'))['used_memory']);
    const plan = pressurePlan(used);
    this.sub.on('message', (_channel: string, key: string) => this.tally.evicted(key));
    await this.sub.subscribe(EVICTED_CHANNEL);
    // E: keyevent notifications; e: evictions (Redis 7). Added to what was set, not replacing it.
    await this.cmd.config('SET', 'notify-keyspace-events', withFlags(this.saved['notify-keyspace-events'] ?? '', 'Ee'));
    await this.cmd.config('SET', 'maxmemory-policy', this.policy);
    await this.cmd.config('SET', 'maxmemory', String(plan.maxmemoryBytes));
    this.fill(plan);
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), startTimeoutMs).unref());
    if ((await Promise.race([this.tally.full, deadline])) === 'timeout') {
      throw new Error(
        `${this.host}:${this.port} evicted nothing within ${startTimeoutMs} ms of filling (maxmemory ${plan.maxmemoryBytes} bytes, ${this.written} fillers written)`,
      );
    }
    return { maxmemoryBytes: plan.maxmemoryBytes, usedMemoryBytes: used };
  }

  /** Fillers at a steady rate; a tick that fails (the node paused, killed) is skipped, the next one tries again. */
  private fill(plan: PressurePlan): void {
    const value = 'x'.repeat(plan.valueBytes);
    const tick = (): void => {
      if (this.stopped) return;
      const p = this.cmd.pipeline();
      for (let i = 0; i < plan.batch; i++) p.set(`${FILLER_PREFIX}${this.written++}`, value, 'EX', plan.fillerTtlS);
      this.filling = p.exec().catch(() => undefined);
      this.timer = setTimeout(() => void this.filling.then(tick), plan.everyMs);
    };
    tick();
  }

  /** Fillers stopped, settings restored, fillers deleted; the counts of the window. */
  async stop(): Promise<PressureSummary> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.filling;
    try {
      const evicted = evictedKeys(parseInfo(await this.cmd.info('stats'))) - this.evictedAtStart;
      for (const k of SAVED) await this.cmd.config('SET', k, this.saved[k] ?? '');
      await this.deleteFillers();
      return { evictedKeys: evicted, lockKeysEvicted: this.tally.counts(), fillersWritten: this.written };
    } finally {
      this.close();
    }
  }

  /** Drop both connections without restoring anything (the node is gone, or teardown). */
  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.cmd.disconnect();
    this.sub.disconnect();
  }

  private async deleteFillers(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.cmd.scan(cursor, 'MATCH', `${FILLER_PREFIX}*`, 'COUNT', 1000);
      if (keys.length > 0) await this.cmd.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

const evictedKeys = (stats: Record<string, string>): number => Number(stats['evicted_keys'] ?? 0);

/** notify-keyspace-events with `flags` added (each letter once). */
export function withFlags(current: string, flags: string): string {
  return [...new Set([...current, ...flags])].join('');
}
