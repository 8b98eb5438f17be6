/**
 * The delay proxy as its own process, so it can run inside a client host's
 * namespace (`ip netns exec`): a Node process cannot enter another network
 * namespace itself. Protocol on stdio, one JSON object per line: it prints
 * `{"port":N}` once listening; each `{"delayMs":N}` read on stdin changes the
 * delay and is echoed back. It exits when stdin closes, so it never outlives
 * the harness that started it.
 */
import { createInterface } from 'node:readline';
import { startDelayProxyServer, type DelayDirection } from './delay-proxy.js';

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (v === undefined) throw new Error(`delay-proxy: missing --${name}`);
  return v;
}

function hostPort(s: string): { host: string; port: number } {
  const i = s.lastIndexOf(':');
  return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
}

const proxy = await startDelayProxyServer({
  listen: hostPort(arg('listen')),
  target: hostPort(arg('target')),
  delayMs: Number(arg('delay-ms')),
  direction: arg('direction') as DelayDirection,
});
process.stdout.write(JSON.stringify({ port: proxy.port }) + '\n');
// Its log (stderr): where it listens and what it forwards to, so a dead proxy's log says which link it was.
process.stderr.write(`${new Date().toISOString()} delay proxy pid ${process.pid}: 127.0.0.1:${proxy.port} -> ${arg('target')} (${arg('direction')})\n`);
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const msg = JSON.parse(line) as { delayMs?: number };
  if (typeof msg.delayMs === 'number') {
    proxy.setDelay(msg.delayMs);
    process.stdout.write(JSON.stringify({ delayMs: msg.delayMs }) + '\n');
  }
});
// Closing the server and its sockets empties the event loop, and the process ends.
input.on('close', () => void proxy.close());
