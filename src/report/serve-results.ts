/**
 * `fencecheck serve`: the results directory over HTTP, on 127.0.0.1 only.
 * `/` is the index of runs, made fresh on every request; a run's report.html
 * is written on first request (or when older than its run's files); a run's
 * own files (test.json, results.json, history.jsonl, logs/*.log) are served
 * as text, and so are the pages of comparisons and debates (compare.html,
 * debate.html). A run directory's own path redirects to its report (the "dir"
 * links of compare.html). Nothing else is: no listing, no file outside a run,
 * no other method than GET and HEAD.
 *
 * Every path is resolved to the real file (links followed) and served only
 * when that file is a regular file inside the results directory, checked on
 * the descriptor it is served from (runtime/store/confined-path.ts): a run's
 * `logs/a.log` linked to /etc/shadow is a 404. A report is made only from
 * files inside its run directory, the rule of every reader of a run, and is
 * written by the store's writer (never through a link at report.html or at a
 * temporary name). Reports asked for while they
 * are being written wait for that one write (single flight), so parallel
 * requests neither race on a temporary file nor see an empty body.
 *
 * Why the Host check: binding to 127.0.0.1 keeps other machines out, but a web
 * page in the user's own browser could still reach the port through a DNS
 * name rebound to 127.0.0.1; such a request carries that name as its Host, so
 * only requests addressed to 127.0.0.1 or localhost are answered.
 */
import { closeSync, createReadStream, fstatSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { EXIT, FencecheckError, UsageError } from '../../core/errors.js';
import { listResults, listRuns, SUMMARY_PAGES } from './list-runs.js';
import { RUN_FILES } from './read-run-dir.js';
import { renderIndexHtml } from './render-index-html.js';
import { writeRunReport } from './write-run-report.js';
import { isInside, LinkedOutsideError, openInside } from '../../runtime/store/confined-path.js';
import { assertRunFilesInside } from '../../runtime/store/read-run-files.js';

export const SERVE_HOST = '127.0.0.1';

export interface ServeOptions {
  dir: string;
  /** 0 picks a free port. */
  port: number;
}

export interface ResultsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const SERVED = new Set<string>([RUN_FILES.test, RUN_FILES.plan, RUN_FILES.results, RUN_FILES.history, RUN_FILES.report, ...SUMMARY_PAGES]);
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
};

export async function serveResults(opts: ServeOptions): Promise<ResultsServer> {
  const root = await realpath(opts.dir).catch(() => null);
  const info = root === null ? null : await stat(root).catch(() => null);
  if (root === null || info === null || !info.isDirectory()) {
    throw new UsageError(
      `Expected \`--dir\` to be a results directory, got \`${opts.dir}\`${info !== null && !info.isDirectory() ? ', which is a file' : ''}`,
      'Run `fencecheck run` first, or pass --dir DIR.',
    );
  }
  const reports = new SingleFlight<string>();
  const server = createServer((req, res) => {
    // A run the tool refuses (its results.json disagrees with its history, a test.json the history contradicts)
    // is bad input, answered 422 with the reason; 500 is left for fencecheck's own failures.
    handle(root, reports, req, res).catch((err: unknown) => {
      const badInput = err instanceof FencecheckError && err.exitCode === EXIT.badInput;
      send(res, badInput ? 422 : 500, `fencecheck serve: ${(err as Error).message}\n`);
    });
  });
  await listen(server, opts.port);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${SERVE_HOST}:${port}/`,
    port,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        new FencecheckError('serve', `cannot listen on ${SERVE_HOST}:${port}: ${err.code ?? err.message}`, {
          hint: err.code === 'EADDRINUSE' ? 'Another program uses that port; pass --port with another number.' : 'Check the port number.',
          // A port in use or not ours to take is the user's to change (254), not a crash of the tool.
          exitCode: err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL' ? EXIT.badInput : EXIT.internal,
          cause: err,
        }),
      ),
    );
    server.listen(port, SERVE_HOST, () => done());
  });
}

async function handle(root: string, reports: SingleFlight<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'GET or HEAD only\n', { Allow: 'GET, HEAD' });
  // Host names are case-insensitive (RFC 9110): LOCALHOST is localhost.
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (host !== SERVE_HOST && host !== 'localhost') return send(res, 403, 'fencecheck serve answers requests for 127.0.0.1 or localhost only\n');
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return send(res, 400, 'bad path\n');
  }
  if (path === '/' || path === '/index.html') {
    const { runs, pages } = await listResults(root);
    return send(res, 200, renderIndexHtml(runs, basename(root), { pages, reportsOnRequest: true }), { 'Content-Type': TYPES['.html']! });
  }
  const wanted = await servable(root, path);
  if (wanted === null) {
    // A run directory itself (compare.html's "dir" links): its report, which links the run's files.
    const run = await runDirInside(root, path);
    if (run !== null) return send(res, 302, `see ${run}report.html\n`, { Location: `${encodeURI(run)}report.html` });
    return send(res, 404, 'not found\n');
  }
  if (basename(wanted) === RUN_FILES.report) {
    // A report embeds the run's files: the rule of every reader of a run (confined-path.ts), said before writing.
    const outside = linkedOutside(dirname(wanted));
    if (outside !== null) return send(res, 404, `not found: ${outside}\n`);
    const run = (await listRuns(dirname(wanted))).find((r) => r.path === '.');
    if (run?.hasHistory && !run.reportFresh) await reports.run(run.dir, () => writeRunReport(run.dir, undefined, { within: root }));
  }
  const fd = openServed(root, wanted);
  if (fd === null) return send(res, 404, 'not found\n');
  const info = fstatSync(fd);
  res.writeHead(200, {
    'Content-Type': TYPES[extname(wanted)] ?? 'text/plain; charset=utf-8',
    'Content-Length': info.size,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  if (req.method === 'HEAD') return void (closeSync(fd), res.end());
  // From the descriptor checked (the path is ignored when `fd` is given), closed when the stream ends.
  createReadStream(wanted, { fd }).pipe(res);
}

/**
 * The file opened if it is a regular file really inside the root (checked on the descriptor opened, so a link
 * swapped in after the check is caught too: confined-path.ts), else null.
 */
function openServed(root: string, file: string): number | null {
  let fd: number;
  try {
    fd = openInside(file, root, 'the results directory');
  } catch {
    return null;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return null;
}

/** Why a run's report cannot be made (one of its files leads outside its directory), or null. */
function linkedOutside(runDir: string): string | null {
  try {
    assertRunFilesInside(runDir);
    return null;
  } catch (err) {
    if (err instanceof LinkedOutsideError) return err.message;
    throw err;
  }
}

/** The file a path names if it is a run's file (or a compare/debate page) whose directory is inside the root, else null. */
async function servable(root: string, path: string): Promise<string | null> {
  if (path.includes('\0')) return null;
  const wanted = resolve(root, `.${path}`);
  const name = basename(wanted);
  const inLogs = basename(dirname(wanted)) === RUN_FILES.logs && extname(name) === '.log';
  if (!SERVED.has(name) && !inLogs) return null;
  const runDir = inLogs ? dirname(dirname(wanted)) : dirname(wanted);
  // The run directory must really be inside the root: `latest` links are fine, `..` and links out are not.
  const real = await realpath(runDir).catch(() => null);
  if (real === null || !isInside(root, real)) return null;
  return join(real, inLogs ? join(RUN_FILES.logs, name) : name);
}

/** The URL path of a run directory inside the root (ending in `/`) when `path` names one, else null. */
async function runDirInside(root: string, path: string): Promise<string | null> {
  if (path.includes('\0')) return null;
  const real = await realpath(resolve(root, `.${path}`)).catch(() => null);
  if (real === null || real === root || !isInside(root, real)) return null;
  const history = await stat(join(real, RUN_FILES.history)).catch(() => null);
  const test = await stat(join(real, RUN_FILES.test)).catch(() => null);
  if (history === null && test === null) return null;
  return path.endsWith('/') ? path : `${path}/`;
}

/** One promise per key while it runs: callers asking for the same key meanwhile share it. */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const going = this.running.get(key);
    if (going !== undefined) return going;
    const started = task().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(body);
}
