/**
 * tcpExchange: one request on its own TCP connection and its answer, with a
 * hard timeout (a paused server still accepts the connection into its
 * backlog, so only an answer within a deadline counts). Here, below both the
 * cluster's probes and the nemesis's memory pressure, which speak it.
 */
import net from 'node:net';

/** Send `payload`, collect the answer until `done(answer)` or the server closes. */
export function tcpExchange(
  host: string,
  port: number,
  payload: string,
  opts: { timeoutMs?: number; done?: (answer: string) => boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let answer = '';
    const finish = (err?: Error): void => {
      socket.destroy();
      if (err) reject(err);
      else resolve(answer);
    };
    socket.setTimeout(opts.timeoutMs ?? 1000, () => finish(new Error(`no answer from ${host}:${port} within ${opts.timeoutMs ?? 1000} ms`)));
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (opts.done?.(answer)) finish();
    });
    socket.on('end', () => finish());
    socket.on('error', (err) => finish(err));
  });
}
