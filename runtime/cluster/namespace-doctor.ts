/**
 * The namespaces provider's part of `fencecheck doctor`: privileges, every
 * program and its version, kernel features (namespaces, veth, bridge,
 * nftables; netem is reported, not required), the address range, the Python
 * reference clients' libraries, and leftovers of an earlier run in every slot.
 */
import { existsSync } from 'node:fs';
import { findTool, lookupUser, PACKAGE_OF, type Tool } from '../hosts/binaries.js';
import { clockLibraryUpToDate } from './clock-library.js';
import { acquireClusterLock, clusterLockHeld, type ClusterLock } from './cluster-lock.js';
import { clockLibraryPath, defaultStateFile } from '../hosts/paths.js';
import { DEFAULT_SUBNET, PREFIX } from '../../core/cluster/cluster-plan.js';
import { isPrivileged } from './preflight.js';
import { ipBatch, runCommand } from '../hosts/run-command.js';
import { isSameProcess } from '../hosts/process-info.js';
import { StateFile } from '../hosts/state-file.js';
import { projectNamespaces, projectRootLinks } from './topology.js';
import { slotsInUse } from './reclaim-every-slot.js';
import type { DoctorCheck } from './doctor-check.js';
import type { DoctorOptions } from './cluster-provider.js';
import { rangeCheck } from './doctor-range.js';
import { probePythonLibraries, pythonLibrariesCheck } from './doctor-python.js';

const VERSION_ARGS: Partial<Record<Tool, string[]>> = {
  ip: ['-V'],
  nft: ['--version'],
  gcc: ['--version'],
  setpriv: ['--version'],
  'redis-server': ['--version'],
  etcd: ['--version'],
  etcdctl: ['version'],
  java: ['-version'],
  postgres: ['--version'],
  initdb: ['--version'],
  pgbouncer: ['--version'],
  memcached: ['--version'],
};

async function version(tool: Tool, path: string): Promise<string> {
  const args = VERSION_ARGS[tool];
  if (!args) {
    // A jar: the Debian package's version says which release it is.
    const pkg = await runCommand('dpkg-query', ['-W', '-f', '${Version}', PACKAGE_OF[tool]], { reject: false });
    return `${PACKAGE_OF[tool]} ${pkg.stdout || '?'}`;
  }
  const out = await runCommand(path, args, { reject: false, timeoutMs: 10_000 });
  return (out.stdout || out.stderr).split('\n')[0]?.trim() ?? '';
}

async function toolCheck(tool: Tool): Promise<DoctorCheck> {
  const path = findTool(tool);
  if (!path) return { name: tool, ok: false, detail: 'not found', hint: `Run \`npm run setup\` (Debian package ${PACKAGE_OF[tool]}).` };
  return { name: tool, ok: true, detail: `${path} (${await version(tool, path)})` };
}

/** Try what the topology and the nemesis use, in a scratch namespace that is deleted again. */
async function kernelCheck(): Promise<DoctorCheck[]> {
  if (!existsSync('/proc/self/ns/net'))
    return [{ name: 'namespaces', ok: false, detail: 'no network namespaces in this kernel', hint: 'Use a kernel with CONFIG_NET_NS.' }];
  const ns = `${PREFIX}doctor`;
  const checks: DoctorCheck[] = [];
  const tryStep = async (name: string, run: () => Promise<unknown>, hint: string): Promise<boolean> => {
    try {
      await run();
      checks.push({ name, ok: true, detail: 'works' });
      return true;
    } catch (err) {
      checks.push({ name, ok: false, detail: err instanceof Error ? err.message.split('\n').slice(0, 2).join(' ') : String(err), hint });
      return false;
    }
  };
  // A scratch namespace left by an interrupted doctor would make `netns add` fail.
  await ipBatch([`netns del ${ns}`], { force: true }).catch(() => undefined);
  try {
    if (!(await tryStep('namespaces', () => ipBatch([`netns add ${ns}`]), 'Run as root on a kernel with network namespaces.'))) return checks;
    await tryStep(
      'veth',
      () => ipBatch([`link add ${PREFIX}dv0 type veth peer name ${PREFIX}dv1`], { namespace: ns }),
      'The kernel needs the veth driver (CONFIG_VETH).',
    );
    await tryStep('bridge', () => ipBatch([`link add ${PREFIX}dbr type bridge`], { namespace: ns }), 'The kernel needs the bridge driver (CONFIG_BRIDGE).');
    const nft = findTool('nft');
    if (nft) {
      await tryStep(
        'nftables',
        () =>
          runCommand('ip', [
            'netns',
            'exec',
            ns,
            nft,
            'add table ip fc-doctor; add chain ip fc-doctor input { type filter hook input priority 0; }; add rule ip fc-doctor input numgen random mod 100 < 1 drop',
          ]),
        'The kernel needs nf_tables with numgen (CONFIG_NF_TABLES).',
      );
    }
    const netem = await runCommand('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', `${PREFIX}dv0`, 'root', 'netem', 'delay', '1ms'], {
      reject: false,
    });
    checks.push({
      name: 'netem',
      ok: true,
      detail: netem.exitCode === 0 ? 'available (fencecheck does not need it)' : 'not available: link delays use the delay proxy instead',
    });
  } finally {
    await ipBatch([`netns del ${ns}`], { force: true }).catch(() => undefined);
  }
  return checks;
}

/**
 * The scratch namespace is created under the cluster lock: a cluster starting
 * meanwhile would take `fc-doctor` for a leftover. While a cluster runs, that
 * cluster already proves the kernel features.
 */
async function kernelCheckUnderLock(stateFile: string): Promise<DoctorCheck[]> {
  let lock: ClusterLock;
  try {
    lock = await acquireClusterLock(stateFile);
  } catch {
    return [{ name: 'kernel', ok: true, detail: 'not probed: a fencecheck cluster is running now (namespaces, veth and bridge work)' }];
  }
  try {
    return await kernelCheck();
  } finally {
    await lock.release();
  }
}

/** One slot's leftovers (slot 0's state file may be given); a slot's cluster whose command runs is none. */
async function leftoverCheck(stateFile: string, slot = 0): Promise<DoctorCheck> {
  const state = StateFile.read(stateFile);
  const namespaces = projectNamespaces(slot);
  const links = projectRootLinks(slot);
  const name = slot === 0 ? 'leftovers' : `leftovers (slot ${slot})`;
  if (!state && namespaces.length === 0 && links.length === 0) return { name, ok: true, detail: 'none' };
  if (await clusterLockHeld(slot)) {
    return { name, ok: true, detail: `none; a fencecheck process${state ? ` (pid ${state.owner.pid})` : ''} is running a cluster now` };
  }
  // A cluster left running on purpose by `fencecheck up` is not a leftover while its servers live.
  if (state?.owner.detached && state.processes.length > 0 && state.processes.every(isSameProcess)) {
    return { name, ok: true, detail: `none; a cluster from \`fencecheck up\` is running (${state.runDir}); \`fencecheck down\` stops it` };
  }
  const what = [
    state ? `state file ${stateFile} (run ${state.runDir}, ${state.processes.length} processes)` : '',
    namespaces.length ? `namespaces ${namespaces.join(' ')}` : '',
    links.length ? `links ${links.join(' ')}` : '',
  ];
  return {
    name,
    ok: false,
    detail: what.filter(Boolean).join('; '),
    hint: 'A cluster is up or an earlier run died: `fencecheck down` removes it all.',
  };
}

/** The namespaces provider's checks: privileges, every program, the Python libraries, the clock library, the kernel, the range, leftovers. */
export async function namespaceChecks(opts: DoctorOptions): Promise<DoctorCheck[]> {
  const privileged = isPrivileged();
  const checks: DoctorCheck[] = [
    privileged
      ? { name: 'privileges', ok: true, detail: process.getuid?.() === 0 ? 'root' : 'CAP_NET_ADMIN and CAP_SYS_ADMIN' }
      : { name: 'privileges', ok: false, detail: 'not root, and lacking CAP_NET_ADMIN/CAP_SYS_ADMIN', hint: 'Run as root: `sudo npx fencecheck doctor`.' },
  ];
  const tools: Tool[] = [
    'ip',
    'nft',
    'gcc',
    'setpriv',
    'redis-server',
    'etcd',
    'etcdctl',
    'java',
    'zookeeper.jar',
    'slf4j-simple.jar',
    'postgres',
    'initdb',
    'pgbouncer',
    'memcached',
  ];
  checks.push(...(await Promise.all(tools.map(toolCheck))));
  checks.push(pythonLibrariesCheck(await probePythonLibraries()));
  checks.push(
    lookupUser('postgres')
      ? { name: 'postgres user', ok: true, detail: 'present' }
      : { name: 'postgres user', ok: false, detail: 'missing', hint: 'Install PostgreSQL with `npm run setup` (the package creates the user).' },
  );
  checks.push(
    clockLibraryUpToDate()
      ? { name: 'clock library', ok: true, detail: clockLibraryPath() }
      : {
          name: 'clock library',
          ok: false,
          detail: `${clockLibraryPath()} is missing or older than its source`,
          hint: 'Run `npm run setup` (it compiles native/fc-clock.c).',
        },
  );
  if (privileged) checks.push(...(await kernelCheckUnderLock(opts.stateFile ?? defaultStateFile())), await rangeCheck(opts.subnet ?? DEFAULT_SUBNET));
  checks.push(await leftoverCheck(opts.stateFile ?? defaultStateFile()));
  for (const slot of slotsInUse().filter((s) => s !== 0)) checks.push(await leftoverCheck(defaultStateFile(slot), slot));
  return checks;
}
