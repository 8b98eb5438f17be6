/**
 * Integration (real servers, root): clients that are not fencecheck's own,
 * speaking docs/client-protocol.md.
 *
 * 1. client-check on one cluster (redis, redis-sentinel, etcd, ZooKeeper,
 *    PostgreSQL): the Python reference clients (redis-py on one node and over
 *    Sentinel, kazoo, python-etcd3) pass it; each
 *    lying fixture (test/integration/fixtures/broken_client.py) fails it, on
 *    the check that names its lie.
 * 2. Runs with `client`: redis-py without a fence under paused holders loses
 *    updates; kazoo's sequence token fenced at the resource loses none and
 *    refuses someone. A client that is never ready, speaks another version,
 *    prints garbage, answers out of order or crashes ends the run with a
 *    typed error or a verdict of unknown naming the fault and its stderr,
 *    and nothing is left behind; a crash is also counted in the evidence,
 *    test.json and the outcome line.
 *
 * Needs Debian's python3-redis, python3-kazoo, python3-etcd3 and
 * python3-psycopg2 (`npm run setup` installs them) and `npm run build`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { FencecheckError } from '../../core/errors.js';
import { variantRunOptions } from '../../src/scenarios/variant-options.js';
import { findScenario } from '../../src/scenarios/catalogue.js';
import type { LockService as LockBackend } from '../../core/vocabulary.js';
import { checkClientOn, type ClientCheckResult } from '../../runtime/client-check/run-client-check.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { leftovers, NOTHING_LEFT, SHARED_MACHINE } from './helpers.js';
import { formatStoredOutcome } from '../../src/check/format-outcome.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';

const PY = '/usr/bin/python3';
const client = (file: string): string => `${PY} ${join(projectRoot(), 'clients', 'python', file)}`;
const broken = (mode: string): string => `${PY} ${join(projectRoot(), 'test', 'integration', 'fixtures', 'broken_client.py')} ${mode}`;
const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-foreign-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

const statusOf = (r: ClientCheckResult, check: string) => r.checks.find((c) => c.check === check);

describe('client-check on a real cluster', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({
      backends: ['redis', 'redis-sentinel', 'etcd', 'zookeeper', 'postgres'],
      clientHosts: ['c1', 'c2'],
      runDir: join(resultsDir, 'client-check'),
      ...SHARED_MACHINE,
    });
  });

  afterAll(async () => {
    await cluster?.teardown();
  });

  const check = (backend: LockBackend, command: string) =>
    checkClientOn(cluster, { backend, client: command, callTimeoutMs: 1000, onCheck: (r) => console.log(`  ${r.status} ${r.check}: ${r.evidence}`) });

  it.each<[string, LockBackend, string, 'monotonic' | 'unique']>([
    ['redis-py Lock', 'redis', client('redis_py_client.py'), 'unique'],
    ['redis-py Lock over Sentinel', 'redis-sentinel', client('redis_py_sentinel_client.py'), 'unique'],
    ['kazoo Lock', 'zookeeper', client('kazoo_client.py'), 'monotonic'],
    ['python-etcd3 Lock', 'etcd', client('etcd3_client.py'), 'unique'],
    // The pause must reach the program a wrapper script exec'd (its name is not the script's).
    ['redis-py behind a wrapper script', 'redis', join(projectRoot(), 'test', 'integration', 'fixtures', 'wrapped-client.sh'), 'unique'],
  ])('%s passes, with its token kind, and its paused holder is refused', async (_, backend, command, token) => {
    const r = await check(backend, command);
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.passed).toBe(true);
    expect(r.token).toBe(token);
    // The danger happened and was refused, not skipped: B was granted during A's pause and A's late access bounced.
    expect(statusOf(r, 'paused-holder')).toMatchObject({ status: 'pass', evidence: expect.stringContaining('refused') });
    expect(statusOf(r, 'fence')?.status).toBe(token === 'monotonic' ? 'pass' : 'skip');
  });

  // The Go and Java reference clients need `npm run setup -- --go --java` (CI runs it); without it they are skipped, loudly.
  const goClient = join(projectRoot(), 'clients', 'go', 'etcd-mutex', 'etcd-mutex');
  const javaReady = existsSync('/usr/share/java/curator-recipes.jar') && existsSync('/usr/bin/java');
  if (!existsSync(goClient)) console.warn(`[foreign-clients] SKIPPED the Go etcd Mutex client: ${goClient} is not built (npm run setup -- --go)`);
  if (!javaReady) console.warn("[foreign-clients] SKIPPED the Java Curator client: Debian's Curator jars or java are missing (npm run setup -- --java)");

  it.skipIf(!existsSync(goClient))(
    "etcd's own concurrency.Mutex (Go) passes, with its revision as a monotonic token, and its paused holder is refused",
    async () => {
      const r = await check('etcd', goClient);
      expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(r.token).toBe('monotonic');
      expect(statusOf(r, 'paused-holder')).toMatchObject({ status: 'pass', evidence: expect.stringContaining('refused') });
    },
  );

  it.skipIf(!javaReady)("Curator's InterProcessMutex (Java) passes with no token, and its paused holder's stale write goes through, as announced", async () => {
    const r = await check('zookeeper', join(projectRoot(), 'clients', 'java', 'curator-mutex'));
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.token).toBe('none');
    // The pause reached the JVM behind the launcher script: the lock passed on, and nothing refused the waking holder.
    expect(statusOf(r, 'paused-holder')).toMatchObject({ status: 'warn' });
  });

  it.each([
    ['fake-acquire', 'exclusion', 'two holders at once'],
    ['reuse-token', 'hand-over', 'was given twice'],
    ['fake-monotonic', 'hand-over', 'not up'],
  ])('the lying client %s fails the %s check, with the evidence', async (mode, failing, evidence) => {
    const r = await check('redis', broken(mode));
    expect(r.passed).toBe(false);
    expect(statusOf(r, failing)).toMatchObject({ status: 'fail', evidence: expect.stringContaining(evidence) });
  });
});

describe('runs with a foreign client', () => {
  const s1 = (label: string, command: string): RunOptions => ({
    ...variantRunOptions(
      findScenario('S1'),
      findScenario('S1').variants.find((v) => v.label === label)!,
      1,
      resultsDir,
    ),
    client: command,
  });
  const by = (r: { verdicts: CheckerVerdict[] }, name: string) => r.verdicts.find((v) => v.checker === name)!;
  const hooks = { log: (l: string) => console.log(`  ${l}`), ...SHARED_MACHINE };

  it('redis-py without a fence, its holder paused past the TTL: updates lost or stale writes accepted', async () => {
    const r = await runLockTest(s1('redis-none', client('redis_py_client.py')), hooks);
    expect(r.valid).toBe(false);
    expect([by(r, 'lost-updates'), by(r, 'stale-writes')].some((v) => v.valid === false)).toBe(true);
    expect(r.replay).toContain("--client '/usr/bin/python3 ");
  });

  it("kazoo's sequence token fenced at the resource: nothing lost, and the fence refused the paused holder", async () => {
    const r = await runLockTest(s1('zookeeper-fence', client('kazoo_client.py')), hooks);
    expect(by(r, 'lost-updates').valid).toBe(true);
    expect(by(r, 'stale-writes').valid).toBe(true);
    expect(by(r, 'mutual-exclusion').valid).toBe(false);
    expect(by(r, 'access-stats').stats?.['write.rejected'] ?? 0).toBeGreaterThan(0);
  });

  const short = (mode: string): RunOptions => ({
    ...DEFAULTS,
    backend: 'redis',
    resource: 'none',
    workload: 'lock-counter',
    clients: 2,
    timeLimitS: 4,
    rate: 4,
    recoverMs: 500,
    resultsDir,
    name: `broken-${mode}`,
    client: broken(mode),
  });

  it.each([
    ['never-ready', 'client-not-ready', 'connecting forever'],
    ['wrong-version', 'client-protocol', 'speaks protocol version 2 and this fencecheck speaks version 1'],
    ['missing-program', 'client-exited', '/nonexistent/fencecheck-client'],
  ])('a client that is %s ends the run with a typed error (exit 254) naming it, and nothing is left', async (mode, code, words) => {
    process.env['FC_CLIENT_READY_TIMEOUT_MS'] = '3000';
    try {
      const options = mode === 'missing-program' ? { ...short(mode), client: '/nonexistent/fencecheck-client --x' } : short(mode);
      const err = await runLockTest(options, hooks).then(
        () => undefined,
        (e: unknown) => e,
      );
      // The run store wraps it (the run directory holds the logs); the client's error is the cause, and 254 stays.
      expect(err).toBeInstanceOf(FencecheckError);
      expect(err).toMatchObject({ exitCode: 254, message: expect.stringContaining(words) });
      expect((err as Error).cause ?? err).toMatchObject({ code });
    } finally {
      delete process.env['FC_CLIENT_READY_TIMEOUT_MS'];
    }
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });

  it.each([
    ['garbage', 'not JSON'],
    ['out-of-order', 'answered id'],
    ['crash', 'exited in the middle of the run (exit code 3)'],
  ])('a client that breaks the protocol (%s) gets a verdict of unknown naming the fault', async (mode, words) => {
    const r = await runLockTest(short(mode), hooks);
    const v = by(r, 'client-protocol');
    console.log(`  ${mode}: ${r.valid} ${v.summary}`);
    expect(v).toMatchObject({ valid: 'unknown', summary: expect.stringContaining(words) });
    expect(r.valid).not.toBe(true);
    expect(r.deciding).toContain('client-protocol');
    if (mode === 'crash') {
      expect(v.summary).toContain('crashing on purpose');
      // Counted as a crash too: its verdict, the run's evidence and test.json (for `check RUN_DIR`), and the outcome line.
      expect(by(r, 'client-crashes')).toMatchObject({ valid: 'unknown', summary: expect.stringContaining('(exit code 3)') });
      const results = readResultsJson(r.runDir)!;
      expect(results.evidence?.clients?.crashes).toBeGreaterThan(0);
      expect(formatStoredOutcome(results, 'lock-counter')).toMatch(/; \d+ client crash\(es\) \(first: client\d+-\d+, exit code 3\)$/);
      expect(readTestJson(r.runDir)?.['clientCrashes']).toHaveLength(results.evidence!.clients!.crashes);
    }
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });
});
