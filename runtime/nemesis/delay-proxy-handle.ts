/**
 * Start a delay proxy where the delayed link begins: in this process for the
 * control host, or as its own process inside a client host's namespace (so
 * the proxied traffic still leaves from the client's address and partitions
 * of that client apply to it). Either way clients connect to 127.0.0.1:port
 * on their host.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describeExit, PreflightError } from '../hosts/cluster-errors.js';
import type { ClientHost } from '../hosts/client-host.js';
import { compiledEntry } from '../hosts/paths.js';
import { within } from '../hosts/within.js';
import type { ServerHandle } from '../hosts/driver.js';
import { startDelayProxyServer, type DelayDirection } from './delay-proxy.js';

export interface DelayProxyOptions {
  /** Where clients connect: `control` (this process; default) or a client host name. */
  on?: string;
  /** The server node behind the proxy. */
  to: string;
  /** The server port (default: the node's client port). */
  port?: number;
  delayMs: number;
  /** Default `to-server`: requests arrive late, answers do not. */
  direction?: DelayDirection;
  /** Where the proxy process's stderr goes (its start, its errors, the trace of a crash); default: nowhere. */
  logPath?: string;
}

export interface DelayProxy {
  /** Where clients on host `on` connect. */
  readonly host: string;
  readonly port: number;
  readonly on: string;
  setDelay(ms: number): Promise<void>;
  close(): Promise<void>;
  /**
   * Why the proxy is gone when it ended before `close()` (killed, crashed), naming it and its log;
   * undefined while it runs, after close(), and always for the in-process proxy (it dies with us).
   */
  died(): string | undefined;
}

export async function startDelayProxy(opts: DelayProxyOptions, node: ServerHandle, on: ClientHost | undefined): Promise<DelayProxy> {
  const target = { host: node.plan.ip, port: opts.port ?? node.plan.port };
  const direction = opts.direction ?? 'to-server';
  if (on === undefined) {
    const server = await startDelayProxyServer({ listen: { host: '127.0.0.1', port: 0 }, target, delayMs: opts.delayMs, direction });
    return {
      host: '127.0.0.1',
      port: server.port,
      on: 'control',
      setDelay: async (ms) => server.setDelay(ms),
      close: () => server.close(),
      died: () => undefined,
    };
  }
  const entry = compiledEntry('../runtime/nemesis/delay-proxy-main.js');
  if (!existsSync(entry)) throw new PreflightError(`The delay proxy's compiled entry ${entry} is missing.`, 'Run `npm run build`.');
  const argv = [
    process.execPath,
    entry,
    '--listen',
    '127.0.0.1:0',
    '--target',
    `${target.host}:${target.port}`,
    '--delay-ms',
    String(opts.delayMs),
    '--direction',
    direction,
  ];
  const proc = on.spawn(argv, { name: `proxy-${on.name}-${node.name}-${target.port}`, clock: false, stopSignal: 'SIGTERM', graceMs: 500 });
  const what = `the delay proxy on ${on.name} to ${node.name} (${target.host}:${target.port}, pid ${proc.pid})`;
  // Drained always (a full stderr pipe would stall the proxy); kept when there is a log.
  if (opts.logPath) proc.child.stderr?.pipe(createWriteStream(opts.logPath, { flags: 'a' }));
  else proc.child.stderr?.resume();
  let closing = false;
  let death: string | undefined;
  void proc.exited.then((exit) => {
    if (!closing) death = `${what} ${describeExit(exit)} mid-run; its clients' link to ${node.name} was cut${opts.logPath ? `; its log: ${opts.logPath}` : ''}`;
  });
  const lines = createInterface({ input: proc.child.stdout! });
  const replies: ((msg: Record<string, number>) => void)[] = [];
  lines.on('line', (line) => replies.shift()?.(JSON.parse(line) as Record<string, number>));
  const next = (): Promise<Record<string, number>> =>
    new Promise((resolve, reject) => {
      replies.push(resolve);
      void proc.exited.then((exit) => reject(new Error(`${what} ${describeExit(exit)}${opts.logPath ? ` (its log: ${opts.logPath})` : ''}`)));
    });
  const first = await next();
  return {
    host: '127.0.0.1',
    port: first['port'] ?? 0,
    on: on.name,
    async setDelay(ms) {
      const reply = next();
      proc.child.stdin!.write(JSON.stringify({ delayMs: ms }) + '\n');
      await reply;
    },
    died: () => death,
    async close() {
      closing = true;
      // The proxy ends when its stdin closes.
      proc.child.stdin!.end();
      await within(proc.exited, 1000);
      await proc.stop();
    },
  };
}
