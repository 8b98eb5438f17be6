/**
 * A TCP proxy that delays one link: clients connect to the proxy, which
 * connects on to the target and passes bytes through a DelayLine. By default
 * only the client-to-server direction is delayed (a write arrives late, the
 * classic fencing scenario); `both` delays answers too.
 */
import net from 'node:net';
import { DelayLine, realClock, type Clock } from './delay-line.js';

export type DelayDirection = 'to-server' | 'both';

export interface DelayProxyServerOptions {
  listen: { host: string; port: number };
  target: { host: string; port: number };
  delayMs: number;
  direction?: DelayDirection;
  clock?: Clock;
}

export interface DelayProxyServer {
  readonly port: number;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

function pipeDelayed(from: net.Socket, to: net.Socket, line: DelayLine<Buffer> | undefined): void {
  from.on('data', (chunk: Buffer) => (line ? line.push(chunk) : to.write(chunk)));
  from.on('end', () => (line ? line.end(() => to.end()) : to.end()));
}

export async function startDelayProxyServer(opts: DelayProxyServerOptions): Promise<DelayProxyServer> {
  let delayMs = opts.delayMs;
  const lines = new Set<DelayLine<Buffer>>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(opts.target);
    const clock = opts.clock ?? realClock;
    const up = new DelayLine<Buffer>((c) => upstream.write(c), delayMs, clock);
    const down = opts.direction === 'both' ? new DelayLine<Buffer>((c) => client.write(c), delayMs, clock) : undefined;
    for (const l of [up, down]) if (l) lines.add(l);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      // Either side failing ends the pair, as a broken link would.
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => {
        sockets.delete(s);
        lines.delete(up);
        if (down) lines.delete(down);
      });
    }
    pipeDelayed(client, upstream, up);
    pipeDelayed(upstream, client, down);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.listen.port, opts.listen.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.listen.port,
    setDelay(ms) {
      delayMs = ms;
      for (const l of lines) l.setDelay(ms);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
