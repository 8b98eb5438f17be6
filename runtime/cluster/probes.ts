/**
 * One-shot network probes used for readiness and leader discovery. Each has a
 * hard timeout: a paused server still accepts TCP connections (the kernel
 * completes the handshake into its backlog), so only an application-level
 * answer within a deadline proves it is alive.
 */
import http from 'node:http';

export { tcpExchange } from '../hosts/tcp-exchange.js';

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
