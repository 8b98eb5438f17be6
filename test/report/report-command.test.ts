/**
 * `fencecheck report`, `report --index` and `serve`, run in-process through
 * commander as the CLI registers them: the files they write, what they print,
 * typed errors for bad input, and a server that answers on 127.0.0.1 only
 * and serves a run's files and nothing else.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerReportCommand } from '../../src/cli/report-command.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { serveResults, type ResultsServer } from '../../src/report/serve-results.js';
import { copySampleRun, tempDir } from './temp-run.js';
import { SAMPLE_OPTIONS, simulatedRunFiles } from '../fixtures/make-sample-run.js';

async function cli(...args: string[]): Promise<{ stdout: string; error?: FencecheckError; exitCode?: number }> {
  const program = new Command().exitOverride();
  process.exitCode = undefined;
  registerReportCommand(program);
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    await program.parseAsync(['node', 'fencecheck', ...args]);
    const exitCode = process.exitCode as number | undefined;
    return { stdout: out.join(''), ...(exitCode === undefined ? {} : { exitCode }) };
  } catch (err) {
    if (err instanceof FencecheckError) return { stdout: out.join(''), error: err };
    throw err;
  } finally {
    spy.mockRestore();
    process.exitCode = undefined;
  }
}

/** A run without faults, simulated and checked by the product (valid: nothing showed the danger): untested. */
async function untestedRun(dir: string): Promise<string> {
  const files = await simulatedRunFiles({ ...SAMPLE_OPTIONS, nemesis: [], script: [] }, '2026-11-29T14:00:00.000Z');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** results.json edited as an attacker would: `valid: true, outcome: safe`, every checker valid. */
function tamperToSafe(run: string): void {
  const r = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as { checkers: { valid: unknown }[] };
  writeFileSync(join(run, 'results.json'), JSON.stringify({ ...r, valid: true, outcome: 'safe', checkers: r.checkers.map((c) => ({ ...c, valid: true })) }));
}

/** results/ with two runs (one not checked yet) and a `latest` link, as `fencecheck run` leaves it. */
function resultsDir(): string {
  const results = tempDir('fencecheck-results-');
  const test = join(results, 'etcd-fence-lock-counter');
  mkdirSync(test);
  copySampleRun(test, '20261129T120000');
  const unchecked = copySampleRun(test, '20261129T130000');
  rmSync(join(unchecked, 'results.json'));
  symlinkSync('20261129T120000', join(test, 'latest'));
  return results;
}

describe('fencecheck report RUN_DIR', () => {
  it('writes report.html and prints its path, the verdict and the replay command', async () => {
    const dir = copySampleRun();
    const { stdout } = await cli('report', dir);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    expect(stdout).toContain(`report: ${join(dir, 'report.html')}`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { checkers: { checker: string; valid: unknown }[] };
    const verdicts = results.checkers.map((c) => `${c.checker} ${c.valid === true ? 'valid' : c.valid === false ? 'invalid' : 'unknown'}`).join(', ');
    expect(stdout).toContain(`INVALID: ${verdicts}\n`);
    expect(stdout).toMatch(/^outcome: UNSAFE; \d+ of \d+ fault windows struck/m);
    expect(stdout).toMatch(/^replay: fencecheck run --backend redis .* --seed 7$/m);
  });

  it('exits as check RUN_DIR does: 1 invalid, 3 untested, 2 not checked yet', async () => {
    expect((await cli('report', copySampleRun())).exitCode).toBe(EXIT.invalid);
    const untested = await cli('report', await untestedRun(join(tempDir(), 'untested')));
    expect(untested.stdout).toMatch(/^VALID: /m);
    expect(untested.stdout).toMatch(/^outcome: UNTESTED/m);
    expect(untested.exitCode).toBe(EXIT.untested);
    const unchecked = copySampleRun();
    rmSync(join(unchecked, 'results.json'));
    expect((await cli('report', unchecked)).exitCode).toBe(EXIT.unknown);
  });

  it('refuses a results.json edited to safe (254), naming the difference, and writes no report from it', async () => {
    const dir = copySampleRun();
    tamperToSafe(dir);
    const { error, stdout } = await cli('report', dir);
    expect(error?.exitCode).toBe(EXIT.badInput);
    expect(error?.message).toBe(
      `${join(dir, 'results.json')}: does not match the run's history: \`valid\` is true in the file but false from the history; the file was edited or written by another tool`,
    );
    expect(stdout).not.toContain('VALID');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('refuses bad input with exit 254 and a hint', async () => {
    for (const args of [['report'], ['report', 'x', '--index', 'y'], ['report', '/nonexistent/run'], ['serve', '--port', '70000']]) {
      const { error } = await cli(...args);
      expect(error, args.join(' ')).toBeInstanceOf(FencecheckError);
      expect(error!.exitCode).toBe(EXIT.badInput);
    }
  });
});

describe('fencecheck report --index', () => {
  it('writes only the index unless told to write the missing reports', async () => {
    const results = resultsDir();
    const { stdout } = await cli('report', '--index', results);
    expect(stdout).toContain('(2 runs, 0 comparison/debate pages, 0 reports written)');
    expect(stdout).toContain('2 runs have no report yet: add --write-reports to write them');
    for (const run of ['20261129T120000', '20261129T130000']) expect(existsSync(join(results, 'etcd-fence-lock-counter', run, 'report.html'))).toBe(false);
    const html = readFileSync(join(results, 'index.html'), 'utf8');
    expect(html).not.toContain('href="etcd-fence-lock-counter/20261129T120000/report.html"');
    expect(html).toContain('no report yet: <code>fencecheck report ');
    expect((await cli('report', 'x', '--write-reports')).error?.exitCode).toBe(EXIT.badInput);
  });

  it('finds runs and compare/debate pages at any depth (the compare layout is seven levels), links not followed', async () => {
    const results = tempDir('fencecheck-results-');
    const deep = join(results, 'compare', '20261130T100000', 'runs', 'redis-none-client-pause', 'seed-1', 'redis-none-lock-counter');
    mkdirSync(deep, { recursive: true });
    copySampleRun(deep, '20261130T100001');
    writeFileSync(join(results, 'compare', '20261130T100000', 'compare.html'), '<p>matrix</p>');
    mkdirSync(join(results, 'debate', 'd1'), { recursive: true });
    writeFileSync(join(results, 'debate', 'd1', 'debate.html'), '<p>debate</p>');
    symlinkSync(results, join(results, 'compare', 'loop'));
    const { stdout } = await cli('report', '--index', results);
    expect(stdout).toContain('(1 run, 2 comparison/debate pages, 0 reports written)');
    const html = readFileSync(join(results, 'index.html'), 'utf8');
    expect(html).toContain('href="compare/20261130T100000/compare.html"');
    expect(html).toContain('href="debate/d1/debate.html"');
    rmSync(results, { recursive: true, force: true });
  });

  it('with --write-reports lists every run once with its verdict, writes the missing reports, and links them', async () => {
    const results = resultsDir();
    const { stdout } = await cli('report', '--index', results, '--write-reports');
    expect(stdout).toContain('(2 runs, 0 comparison/debate pages, 2 reports written)');
    const html = readFileSync(join(results, 'index.html'), 'utf8');
    expect(html.match(/<tr data-run=/g)).toHaveLength(2);
    expect(html).toContain('href="etcd-fence-lock-counter/20261129T120000/report.html"');
    expect(html).toContain('INVALID');
    expect(html).toContain('NOT CHECKED');
    expect(existsSync(join(results, 'etcd-fence-lock-counter', '20261129T130000', 'report.html'))).toBe(true);
    expect((await cli('report', '--index', results, '--write-reports')).stdout).toContain('0 reports written');
  });

  it('marks a valid run that showed no danger as untested, with why', async () => {
    const results = resultsDir();
    await untestedRun(join(results, 'etcd-fence-lock-counter', '20261129T140000'));
    await cli('report', '--index', results);
    const html = readFileSync(join(results, 'index.html'), 'utf8');
    expect(html).toContain('<span class="v v-true">VALID</span><div class="untested" title="no fault applied">untested</div>');
    expect(html.match(/class="untested"/g)).toHaveLength(1);
  });

  it('lists a run whose results.json was edited to safe as a problem, never as VALID', async () => {
    const results = resultsDir();
    const run = join(results, 'etcd-fence-lock-counter', '20261129T120000');
    tamperToSafe(run);
    await cli('report', '--index', results);
    const html = readFileSync(join(results, 'index.html'), 'utf8');
    expect(html).not.toContain('class="v v-true"');
    expect(html).toContain('does not match the run&#39;s history: `valid` is true in the file but false from the history');
  });
});

describe('fencecheck serve', () => {
  let server: ResultsServer;
  let root: string;
  beforeAll(async () => {
    root = resultsDir();
    // A run's log linked to a file outside the results, a report linked out, and a comparison's page.
    const run = join(root, 'etcd-fence-lock-counter', '20261129T120000');
    mkdirSync(join(run, 'logs'), { recursive: true });
    symlinkSync('/etc/passwd', join(run, 'logs', 'a.log'));
    writeFileSync(join(run, 'logs', 'b.log'), 'a real log\n');
    mkdirSync(join(root, 'compare', 'c1'), { recursive: true });
    writeFileSync(join(root, 'compare', 'c1', 'compare.html'), '<p>matrix</p>');
    mkdirSync(join(root, 'outside-link'));
    symlinkSync('/etc/passwd', join(root, 'outside-link', 'test.json'));
    server = await serveResults({ dir: root, port: 0 });
  });
  afterAll(() => server?.close());

  const get = (path: string, opts: { host?: string; method?: string } = {}) =>
    new Promise<{ status: number; body: string; type: string | undefined; location: string | undefined }>((done, fail) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path, method: opts.method ?? 'GET', headers: { host: opts.host ?? `127.0.0.1:${server.port}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), type: res.headers['content-type'], location: res.headers.location }),
          );
        },
      );
      req.on('error', fail);
      req.end();
    });

  it('listens on 127.0.0.1', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('serves the index and writes a report on request', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    // The two runs, and outside-link/ listed with its problem (its test.json leads out), not read.
    expect(index.body.match(/<tr data-run=/g)).toHaveLength(3);
    expect(index.body).toContain('test.json is a link to /etc/passwd, outside its run directory');
    expect(index.body).not.toContain('root:x:0');
    const report = await get('/etcd-fence-lock-counter/latest/report.html');
    expect(report.status).toBe(200);
    expect(report.type).toContain('text/html');
    expect(report.body).toContain('id="fencecheck-data"');
    expect((await get('/etcd-fence-lock-counter/latest/results.json')).status).toBe(200);
    const plan = await get('/etcd-fence-lock-counter/latest/plan.json');
    expect(plan.status).toBe(200);
    expect(plan.type).toContain('application/json');
  });

  it("serves nothing but runs' files, to nobody but localhost", async () => {
    for (const path of [
      '/../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/etcd-fence-lock-counter/',
      '/etcd-fence-lock-counter/latest/../../../package.json',
      '/index.html/..%2f..%2fx',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await get('/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await get('/', { method: 'POST' })).status).toBe(405);
  });

  it('resolves links: a log or run file linked outside the results is a 404, a real log is served', async () => {
    expect((await get('/etcd-fence-lock-counter/20261129T120000/logs/a.log')).status).toBe(404);
    expect((await get('/etcd-fence-lock-counter/latest/logs/a.log')).status).toBe(404);
    expect((await get('/outside-link/test.json')).status).toBe(404);
    expect((await get('/etcd-fence-lock-counter/latest/logs/b.log')).body).toBe('a real log\n');
  });

  it('never builds a report from a run file linked out of the results directory', async () => {
    const outsideDir = tempDir('fencecheck-outside-');
    const secret = join(outsideDir, 'results.json');
    writeFileSync(secret, '{"valid": true, "checkers": [], "secret": "SHADOW-CONTENT"}');
    const run = copySampleRun(join(root, 'etcd-fence-lock-counter'), '20261129T150000');
    rmSync(join(run, 'results.json'));
    symlinkSync(secret, join(run, 'results.json'));
    writeFileSync(join(outsideDir, 'history.jsonl'), 'SHADOW-HISTORY\n');
    const run2 = copySampleRun(join(root, 'etcd-fence-lock-counter'), '20261129T160000');
    rmSync(join(run2, 'history.jsonl'));
    symlinkSync(join(outsideDir, 'history.jsonl'), join(run2, 'history.jsonl'));
    for (const r of ['20261129T150000', '20261129T160000']) {
      const page = await get(`/etcd-fence-lock-counter/${r}/report.html`);
      expect(page.status, r).toBe(404);
      expect(page.body).not.toMatch(/SHADOW/);
      expect(existsSync(join(root, 'etcd-fence-lock-counter', r, 'report.html'))).toBe(false);
    }
    expect((await get('/')).body).not.toMatch(/SHADOW/);
    rmSync(run, { recursive: true });
    rmSync(run2, { recursive: true });
  });

  it('does not freeze on FIFOs and devices in run directories: every request still answers', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const run = copySampleRun(join(root, 'etcd-fence-lock-counter'), `20261129T17000${i}`);
      const name = ['results.json', 'test.json', 'history.jsonl', 'results.json', 'test.json'][i]!;
      rmSync(join(run, name));
      if (i < 3) execFileSync('mkfifo', [join(run, name)]);
      else symlinkSync('/dev/zero', join(run, name));
      made.push(run);
    }
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('is a FIFO (named pipe), not a regular file');
    for (let i = 0; i < 5; i++) expect([404, 422], `run ${i}`).toContain((await get(`/etcd-fence-lock-counter/20261129T17000${i}/report.html`)).status);
    expect((await get('/etcd-fence-lock-counter/latest/results.json')).status).toBe(200);
    const plan = await get('/etcd-fence-lock-counter/latest/plan.json');
    expect(plan.status).toBe(200);
    expect(plan.type).toContain('application/json');
    for (const run of made) rmSync(run, { recursive: true });
  }, 20_000);

  it('a run directory\'s own path (compare.html\'s "dir" links) redirects to its report; other directories are 404', async () => {
    const dir = await get('/etcd-fence-lock-counter/20261129T120000');
    expect(dir.status).toBe(302);
    expect(dir.location).toBe('/etcd-fence-lock-counter/20261129T120000/report.html');
    expect((await get('/etcd-fence-lock-counter/latest/')).location).toBe('/etcd-fence-lock-counter/latest/report.html');
    for (const path of ['/etcd-fence-lock-counter', '/compare/c1', '/nope/']) expect((await get(path)).status, path).toBe(404);
  });

  it('a port in use is a 254 with its hint, not a crash', async () => {
    const err = await serveResults({ dir: root, port: server.port }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FencecheckError);
    expect((err as FencecheckError).exitCode).toBe(EXIT.badInput);
    expect((err as FencecheckError).hint).toMatch(/pass --port with another number/);
  });

  it('answers LOCALHOST (host names are case-insensitive) and serves compare.html, linked from the index', async () => {
    expect((await get('/', { host: `LOCALHOST:${server.port}` })).status).toBe(200);
    expect((await get('/compare/c1/compare.html')).body).toBe('<p>matrix</p>');
    expect((await get('/')).body).toContain('href="compare/c1/compare.html"');
  });

  it('writes a missing report once for parallel requests: every answer is the whole report', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/etcd-fence-lock-counter/20261129T130000/report.html')));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toContain('id="fencecheck-data"');
    }
    expect(new Set(answers.map((a) => a.body.length)).size).toBe(1);
  });

  it('refuses a --dir that is a file (254)', async () => {
    const parent = tempDir('fencecheck-serve-');
    const file = join(parent, 'f');
    writeFileSync(file, 'x');
    await expect(serveResults({ dir: file, port: 0 })).rejects.toThrow(
      expect.objectContaining({ exitCode: EXIT.badInput, message: expect.stringContaining('which is a file') }),
    );
    rmSync(parent, { recursive: true, force: true });
  });
});

describe('fencecheck serve: a run that is bad input', () => {
  it('a results.json that disagrees with its history: 422 with the reason, never 500', async () => {
    const root = tempDir('fencecheck-results-');
    const run = copySampleRun(root, 'tampered');
    const results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as Record<string, unknown>;
    results['valid'] = !results['valid'];
    writeFileSync(join(run, 'results.json'), JSON.stringify(results));
    const server = await serveResults({ dir: root, port: 0 });
    try {
      const status = await new Promise<{ status: number; body: string }>((done, fail) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/tampered/report.html', headers: { host: `127.0.0.1:${server.port}` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', fail);
        req.end();
      });
      expect(status.status).toBe(422);
      expect(status.body).toContain("does not match the run's history: `valid`");
    } finally {
      await server.close();
    }
  });
});
