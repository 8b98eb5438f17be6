/**
 * Integration (a Docker daemon, root for nft): Docker Desktop's situation on
 * this Linux machine. A host nft table, `fencecheck-noroute`, drops this
 * machine's own packets to the run's /24 (output hook: what this process
 * sends; the containers' traffic to each other is forwarded over the bridge
 * and untouched), so this process cannot reach the containers, as on Docker
 * Desktop, a remote daemon or Docker-in-Docker.
 *
 * - Evidence first: the reachability probe finds the network without the rule
 *   and does not with it.
 * - `--harness host` then fails in seconds with a typed error (254) that says
 *   to use `--harness container`: never a hang, never 255.
 * - `auto` runs fencecheck in the client image on the network, and the runs
 *   end as on this machine: redis without a fence under a client pause
 *   unsafe, with fence-claim safe with refusals; a report is written.
 * The table is removed after every test, on SIGINT/SIGTERM and at exit;
 * nothing with the project's label is left.
 *
 * Skips LOUDLY without a Docker daemon, this checkout's images, or nft as root.
 * Needs `npm run build` and `fencecheck images build` first (the client image
 * holds dist/).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { chosenSubnet } from '../../runtime/cluster/chosen-subnet.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { DEFAULT_SUBNET, parseSubnet } from '../../core/cluster/cluster-plan.js';
import { readRunSummary } from '../../src/compare/run-summary.js';
import { docker, dockerStatus, imageExists } from '../../runtime/cluster/containers/docker-cli.js';
import { IMAGE_NAMES } from '../../runtime/cluster/containers/image-specs.js';
import { imageRef } from '../../runtime/cluster/containers/image-tags.js';
import { probeNetwork } from '../../runtime/cluster/containers/reachability.js';
import { MAIN } from '../cli/run-cli.js';
import { waitFor, withClusterLock } from './helpers.js';

const TABLE = 'fencecheck-noroute';
const SUBNET = parseSubnet(chosenSubnet(undefined) ?? DEFAULT_SUBNET);

async function unusable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'not root (the nft table needs it)';
  try {
    execFileSync('nft', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no nft command';
  }
  const s = await dockerStatus();
  if (!s.usable) return `no usable Docker daemon (${s.reason ?? '?'}); run \`npm run setup -- --docker\``;
  for (const name of IMAGE_NAMES) if (!(await imageExists(imageRef(name)))) return `image ${imageRef(name)} is not built; run \`fencecheck images build\``;
  return undefined;
}

const why = await unusable();
if (why) console.warn(`\n!!! SKIPPING the harness-in-a-container tests: ${why} !!!\n`);

function addNoRoute(): void {
  execFileSync('nft', ['-f', '-'], {
    input: `table ip ${TABLE} {\n chain out {\n  type filter hook output priority 0; policy accept;\n  ip daddr ${SUBNET}.0/24 drop\n }\n}\n`,
  });
}
function removeNoRoute(): void {
  try {
    execFileSync('nft', ['delete', 'table', 'ip', TABLE], { stdio: 'ignore' });
  } catch {
    // not there
  }
}
function noRouteTables(): string[] {
  return execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(TABLE));
}
// An interrupted test run must not leave this machine unable to reach 10.77.0.0/24.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    removeNoRoute();
    process.kill(process.pid, signal);
  });
}
process.once('exit', removeNoRoute);

async function withNoRoute<T>(f: () => Promise<T>): Promise<T> {
  addNoRoute();
  try {
    return await f();
  } finally {
    removeNoRoute();
  }
}

interface Cli {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * The built CLI as a user runs it; killed (and the test failed) if it hangs. `onOutput` sees the output
 * so far after each chunk, with the child (to signal it at a given moment).
 */
function cli(args: string[], timeoutMs: number, onOutput?: (text: string, child: ChildProcess) => void): Promise<Cli> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: projectRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
      onOutput?.(stdout + stderr, child);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += String(d);
      onOutput?.(stdout + stderr, child);
    });
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`fencecheck ${args.join(' ')} hung for ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 + osConstants.signals[signal] : null), stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Send `signal` once, when the run's main phase has begun (its clients are running in their containers). */
function inMainPhase(signal: NodeJS.Signals): (text: string, child: ChildProcess) => void {
  let sent = false;
  return (text, child) => {
    if (sent || !text.includes('main phase:')) return;
    sent = true;
    setTimeout(() => child.kill(signal), 2000);
  };
}

const LABEL = 'label=org.fencecheck.project=fencecheck';
async function labelled(): Promise<{ containers: string[]; networks: string[]; volumes: string[] }> {
  const names = async (args: string[], field: string): Promise<string[]> =>
    (await docker([...args, '--filter', LABEL, '--format', `{{.${field}}}`])).stdout.split('\n').filter(Boolean);
  return { containers: await names(['ps', '-a'], 'Names'), networks: await names(['network', 'ls'], 'Name'), volumes: await names(['volume', 'ls'], 'Name') };
}

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-harness-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

// Short runs with the parameters that make a client pause bite (those of runs.test.ts), 10 s of workload.
const runArgs = (resource: string): string[] => [
  'run',
  '--backend',
  'redis',
  '--resource',
  resource,
  '--nemesis',
  'client-pause@holder-read',
  '--time-limit',
  '10',
  '--clients',
  '3',
  '--ttl-ms',
  '1000',
  '--rate',
  '4',
  '--interval-ms',
  '2000',
  '--duration-ms',
  '3000',
  '--recover-ms',
  '2000',
  '--seed',
  '1',
  '--provider',
  'containers',
  '--results',
  resultsDir,
  '--busy-timeout-ms',
  '90000',
];

describe.skipIf(why !== undefined)('the harness in a container, where this machine does not reach the containers', () => {
  afterEach(async () => {
    expect(noRouteTables()).toEqual([]);
    expect(await labelled()).toEqual({ containers: [], networks: [], volumes: [] });
  });

  it('the drop rule really cuts this machine from the network (the probe says so both ways)', async () => {
    const image = imageRef('client');
    const open = await withClusterLock(() => probeNetwork(SUBNET, image, 'test-open'));
    const cut = await withClusterLock(() => withNoRoute(() => probeNetwork(SUBNET, image, 'test-cut')));
    console.log(`without ${TABLE}: ${open.detail}\nwith ${TABLE}: ${cut.detail}`);
    expect(open.reachable).toBe(true);
    expect(cut.reachable).toBe(false);
  }, 60_000);

  it('--harness host fails in seconds with a typed error (254) naming --harness container', async () => {
    const r = await withNoRoute(() => cli([...runArgs('none'), '--harness', 'host'], 120_000));
    console.log(`exit ${r.code} after ${r.ms} ms\n${r.stderr}`);
    expect(r.code).toBe(254);
    expect(r.stderr).toContain(`cannot reach the containers' network ${SUBNET}.0/24`);
    expect(r.stderr).toContain('Hint: Run with `--harness container`');
    expect(r.stderr).not.toContain('internal error');
    expect(r.ms).toBeLessThan(30_000);
  }, 150_000);

  it.each([
    ['none', 1, 'unsafe'],
    ['fence-claim', 0, 'safe'],
  ] as const)(
    'auto: redis/%s under a client pause runs in a container and ends as here (exit %i, %s)',
    async (resource, exit, outcome) => {
      const r = await withNoRoute(() => cli(runArgs(resource), 180_000));
      console.log(
        `exit ${r.code} after ${r.ms} ms\n${r.stderr.split('\n').slice(0, 4).join('\n')}\n${r.stdout
          .split('\n')
          .filter((l) => /^(outcome|verdict|run):/.test(l))
          .join('\n')}`,
      );
      expect(r.stderr).toContain("harness: in a container (auto: this machine does not reach the containers' network");
      expect(r.code).toBe(exit);
      const dir = /^run: (.+)$/m.exec(r.stdout)?.[1];
      expect(dir).toBeDefined();
      const s = readRunSummary(dir!, { id: resource, cellId: `redis/${resource}/client-pause`, seed: 1 });
      expect(s.outcome).toBe(outcome);
      expect(s.hasReport).toBe(true);
      if (resource === 'fence-claim') expect(s.writes?.rejected ?? 0).toBeGreaterThan(0);
    },
    200_000,
  );

  it('Ctrl-C reaches the harness in its container: the cluster is torn down, exit 130', async () => {
    const r = await withNoRoute(() => cli(runArgs('none'), 120_000, inMainPhase('SIGINT')));
    console.log(
      `exit ${r.code} after ${r.ms} ms\n${r.stderr
        .split('\n')
        .filter((l) => /SIGINT|torn down/.test(l))
        .join('\n')}`,
    );
    expect(r.stderr).toContain('fencecheck: SIGINT: passed to the harness in fc-harness-');
    expect(r.stderr).toContain('fencecheck: SIGINT: tearing the cluster down');
    expect(r.code).toBe(130);
  }, 150_000);

  it('a SIGKILL of fencecheck: the harness in its container tears down by itself, `down` removes the clock volume', async () => {
    const r = await withNoRoute(() => cli(runArgs('none'), 120_000, inMainPhase('SIGKILL')));
    expect(r.code).toBe(137);
    const t0 = Date.now();
    const left = await waitFor('the harness to tear down', async () => ((await labelled()).containers.length === 0 ? labelled() : undefined), 60_000, 500);
    console.log(
      `after SIGKILL: no container left after ${Date.now() - t0} ms; left: networks [${left.networks.join(' ')}] volumes [${left.volumes.join(' ')}]`,
    );
    expect(left.networks).toEqual([]);
    const down = await cli(['down'], 60_000);
    console.log(down.stdout);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/volumes: [1-9]/);
  }, 200_000);
});
