/**
 * The `evict` fault on a memcached node (../../core/generator/memcached-eviction.ts
 * says why and how): the harness connects from the control namespace, saves
 * the settings it changes (the memory limit, the slab mover, the verbosity),
 * lowers the limit to 8 MB, writes the ballast, follows `watch evictions`,
 * and writes fillers of the lock key's size, paced by that stream, until
 * `stop()`, which puts every setting back and deletes the fillers and the
 * ballast still there, and says how many eviction lines memcached dropped
 * (`logLinesLost`: then the lock keys evicted may be more than it names).
 *
 * The verbosity goes to 0 for the window: memcached runs with -vv (its log
 * tells a lock run's story), and 100,000 fillers a second would bury it; the
 * evicted keys are in the history (`evicted` ops) and the window's counts in
 * `stop-evict`. `start()` resolves once the cache has evicted its first item
 * (the fault is in force) or rejects after `startTimeoutMs`.
 */
import net from 'node:net';
import { EvictionTally } from './eviction-tally.js';
import { isFiller, type EvictPolicy } from '../../core/generator/eviction.js';
import {
  BALLAST_VALUE_BYTES,
  ballastKey,
  evictedKeyOf,
  fillerKey,
  memcachedPressurePlan,
  PAGE_BYTES,
  parseMetadumpLine,
  parseStats,
  PROBE_KEY,
  PROBE_VALUE_BYTES,
  type MemcachedPressurePlan,
} from '../../core/generator/memcached-eviction.js';
import { LogPacedFill } from '../../core/generator/log-paced-fill.js';
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';
import { tcpExchange } from '../hosts/tcp-exchange.js';
import type { PressureStarted, PressureSummary } from './redis-pressure.js';

const END = /(?:^|\n)(?:END|OK|ERROR|CLIENT_ERROR [^\r]*|SERVER_ERROR [^\r]*|MEMLIMIT_TOO_SMALL[^\r]*|VERSION [^\r]*)\r\n$/;

/** Eviction log lines memcached dropped so far (a worker's buffer full, or a watcher's): the lock keys evicted may be more than the stream named. */
const logLinesLost = (stats: Record<string, string>): number => Number(stats['log_worker_dropped'] ?? 0) + Number(stats['log_watcher_skipped'] ?? 0);

export class MemcachedPressure {
  private saved: { memlimitMb: number; automove: string; verbosity: string } | undefined;
  private evictionsAtStart = 0;
  private logLostAtStart = 0;
  private pacer: LogPacedFill | undefined;
  private written = 0;
  private filler: net.Socket | undefined;
  private watch: net.Socket | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly tally: EvictionTally;

  constructor(
    private readonly host: string,
    private readonly port: number,
    policy: EvictPolicy,
    onLockKeyEvicted: (key: string) => void,
    private readonly timeoutMs = 1000,
  ) {
    this.tally = new EvictionTally(onLockKeyEvicted);
    // memcached has one policy: LRU over every item, whatever its expiry (the plan refuses volatile-lru first).
    if (policy !== 'allkeys-lru')
      throw new UnsupportedFaultError(
        `memcached evicts by LRU over every item; it has no ${policy}.`,
        'Run the evict fault on memcached with `--evict-policy allkeys-lru` (the default).',
      );
  }

  async start(startTimeoutMs = 3000): Promise<PressureStarted> {
    const settings = parseStats(await this.ask('stats settings\r\n'));
    this.saved = {
      memlimitMb: Math.round(Number(settings['maxbytes']) / PAGE_BYTES),
      automove: settings['slab_automove'] ?? '1',
      verbosity: settings['verbosity'] ?? '0',
    };
    const stats = parseStats(await this.ask('stats\r\n'));
    this.evictionsAtStart = Number(stats['evictions'] ?? 0);
    this.logLostAtStart = logLinesLost(stats);
    await this.ask(`set ${PROBE_KEY} 0 3600 ${PROBE_VALUE_BYTES}\r\n${'p'.repeat(PROBE_VALUE_BYTES)}\r\n`, /STORED\r\n$|ERROR[^\r]*\r\n$/);
    const items = (await this.ask('lru_crawler metadump all\r\n'))
      .split(/\r?\n/)
      .map(parseMetadumpLine)
      .filter((i) => i !== null);
    const probe = items.find((i) => i.key === PROBE_KEY);
    if (probe === undefined) throw new Error(`${this.host}:${this.port}: the probe item ${PROBE_KEY} is missing from lru_crawler metadump`);
    const malloced = Number(parseStats(await this.ask('stats slabs\r\n'))['total_malloced'] ?? 0);
    const plan = memcachedPressurePlan({
      pagesInUse: Math.ceil(malloced / PAGE_BYTES),
      probeSize: probe.size,
      lockItems: items.filter((i) => !isFiller(i.key)),
    });
    await this.ask('verbosity 0\r\n');
    await this.ask('slabs automove 0\r\n');
    const limit = await this.ask(`cache_memlimit ${plan.memlimitMb}\r\n`);
    if (!limit.startsWith('OK')) throw new Error(`${this.host}:${this.port} refused cache_memlimit ${plan.memlimitMb}: ${limit.trim()}`);
    await this.writeBallast(plan.ballastItems);
    const pacer = new LogPacedFill(plan, Date.now());
    this.pacer = pacer;
    await this.follow();
    this.fill(plan, pacer);
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), startTimeoutMs).unref());
    if ((await Promise.race([this.tally.full, deadline])) === 'timeout') {
      throw new Error(
        `${this.host}:${this.port} evicted nothing within ${startTimeoutMs} ms of filling (cache_memlimit ${plan.memlimitMb} MB, ${plan.ballastItems} ballast items, ${this.written} fillers written)`,
      );
    }
    return { maxmemoryBytes: plan.memlimitMb * PAGE_BYTES, usedMemoryBytes: malloced };
  }

  /** One command on its own connection (tcpExchange), its answer once it ends (`END`, `OK`, an error line). */
  private async ask(command: string, end: RegExp = END): Promise<string> {
    try {
      return await tcpExchange(this.host, this.port, command, { timeoutMs: this.timeoutMs, done: (a) => end.test(a) });
    } catch (err) {
      throw new Error(`memcached at ${this.host}:${this.port}, \`${command.split('\r\n')[0]}\`: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async writeBallast(count: number): Promise<void> {
    const value = 'b'.repeat(BALLAST_VALUE_BYTES);
    let batch = '';
    for (let i = 0; i < count; i++) batch += `set ${ballastKey(i)} 0 3600 ${BALLAST_VALUE_BYTES} noreply\r\n${value}\r\n`;
    // `version` after the noreply sets: its answer comes once every set before it is done.
    await this.ask(`${batch}version\r\n`, /VERSION [^\r]*\r\n$/);
  }

  /** memcached's eviction log stream: each evicted item's key, as it goes. */
  private follow(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: this.host, port: this.port });
      this.watch = socket;
      let buffer = '';
      let ok = false;
      socket.setTimeout(
        this.timeoutMs,
        () => !ok && reject(new Error(`memcached at ${this.host}:${this.port}: no answer to \`watch evictions\` within ${this.timeoutMs} ms`)),
      );
      socket.on('connect', () => socket.write('watch evictions\r\n'));
      socket.on('error', (err) => (ok ? undefined : reject(err)));
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (!ok) {
            if (line !== 'OK') return reject(new Error(`memcached at ${this.host}:${this.port} answered \`watch evictions\` with ${JSON.stringify(line)}`));
            ok = true;
            socket.setTimeout(0);
            resolve();
            continue;
          }
          const key = evictedKeyOf(line);
          if (key === null) continue;
          this.pacer?.line(Date.now());
          this.tally.evicted(key);
        }
      });
    });
  }

  /**
   * Fillers on one connection, paced by the eviction lines (../../core/generator/log-paced-fill.ts: faster, and
   * memcached drops the lines that would name the lock key); a node that stops reading (paused) holds the next tick
   * until it drains.
   */
  private fill(plan: MemcachedPressurePlan, pacer: LogPacedFill): void {
    const socket = net.connect({ host: this.host, port: this.port });
    this.filler = socket;
    socket.on('error', () => undefined);
    // The fillers are noreply: the only answers on this connection are the probes' `stats`.
    let answers = '';
    socket.on('data', (chunk) => {
      answers += chunk.toString('utf8');
      let end: number;
      while ((end = answers.indexOf('END\r\n')) >= 0) {
        const evicted = Number(parseStats(answers.slice(0, end))['evictions'] ?? 0) - this.evictionsAtStart;
        answers = answers.slice(end + 5);
        pacer.probed(evicted, Date.now());
      }
    });
    const value = 'x'.repeat(plan.fillerValueBytes);
    const tick = (): void => {
      if (this.stopped || socket.destroyed) return;
      const next = (): void => void (this.timer = setTimeout(tick, plan.everyMs));
      const n = pacer.allowance(Date.now());
      let batch = '';
      for (let i = 0; i < n; i++) batch += `set ${fillerKey(this.written++)} 0 ${plan.fillerTtlS} ${plan.fillerValueBytes} noreply\r\n${value}\r\n`;
      pacer.wrote(n);
      if (pacer.wantsProbe()) {
        batch += 'stats\r\n';
        pacer.probeSent();
      }
      if (batch === '' || socket.write(batch)) next();
      else socket.once('drain', next);
    };
    socket.on('connect', tick);
  }

  /** Fillers stopped, settings restored, fillers and ballast deleted; the counts of the window. */
  async stop(): Promise<PressureSummary> {
    this.stopped = true;
    clearTimeout(this.timer);
    try {
      await this.flushFiller();
      const stats = parseStats(await this.ask('stats\r\n'));
      const evicted = Number(stats['evictions'] ?? 0) - this.evictionsAtStart;
      // Deleted while the verbosity is still 0: thousands of deletes would bury the -vv log too.
      await this.deleteFillers();
      if (this.saved !== undefined) {
        await this.ask(`cache_memlimit ${this.saved.memlimitMb}\r\n`);
        await this.ask(`slabs automove ${this.saved.automove}\r\n`);
        await this.ask(`verbosity ${this.saved.verbosity}\r\n`);
      }
      return {
        evictedKeys: evicted,
        lockKeysEvicted: this.tally.counts(),
        fillersWritten: this.written,
        logLinesLost: logLinesLost(stats) - this.logLostAtStart,
      };
    } finally {
      this.close();
    }
  }

  /** The filler connection ended once what it wrote is sent (bounded: a paused node may never read it). */
  private flushFiller(): Promise<void> {
    const socket = this.filler;
    if (socket === undefined || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => (socket.destroy(), resolve()), this.timeoutMs);
      socket.end(() => (clearTimeout(t), resolve()));
    });
  }

  private async deleteFillers(): Promise<void> {
    const keys = (await this.ask('lru_crawler metadump all\r\n'))
      .split(/\r?\n/)
      .map(parseMetadumpLine)
      .filter((i) => i !== null && isFiller(i.key))
      .map((i) => i!.key);
    if (keys.length > 0) await this.ask(`${keys.map((k) => `delete ${k} noreply\r\n`).join('')}version\r\n`, /VERSION [^\r]*\r\n$/);
  }

  /** Drop the connections without restoring anything (the node is gone, or teardown). */
  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.filler?.destroy();
    this.watch?.destroy();
  }
}
