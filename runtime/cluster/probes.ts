/**
 * One-shot network probes used for readiness and leader discovery. Each has a
 * hard timeout: a paused server still accepts TCP connections (the kernel
 * completes the handshake into its backlog), so only an application-level
 * answer within a deadline proves it is alive.
 */
import http from 'node:http';
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

/**
 * GET a JSON document. Uses node:http with no keep-alive agent: a pooled
 * connection (as fetch keeps) would hold the event loop open after
 * `fencecheck up` is done.
 */
export function httpJson(url: string, opts: { timeoutMs?: number; method?: string; body?: string } = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', agent: false, timeout: opts.timeoutMs ?? 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(new Error(`${url} answered ${res.statusCode} with non-JSON: ${body.slice(0, 200)}`, { cause: err }));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${opts.timeoutMs ?? 1000} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}
