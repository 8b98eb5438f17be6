/**
 * The I/O of a warm cluster's reset and clean check over a running Cluster:
 * observe (the nodes' states, clock files, nft tables, client processes; each asked of its provider:
 * /proc and `ip netns exec` for namespaces, the Docker daemon and `docker exec` for containers), act on the
 * planned steps (reset-plan.ts), then each backend's own reset and check
 * (each backend spec's `reset`, runtime/cluster/backends/*-reset.ts). Pure decisions live in reset-plan.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../cluster.js';
import { CLOCK_DIR, readClockOffset, writeClockOffset } from '../../hosts/clock-file.js';
import { allHosts, type BackendName } from '../../../core/cluster/cluster-plan.js';
import { waitForExit } from '../../hosts/process-info.js';
import type { ClientProcess } from '../../hosts/client-host.js';
import type { CleanCheck } from '../../../core/run-files/cluster-record.js';
import { deleteTableScript } from '../../nemesis/nft-rules.js';
import { messageOf, type ResetContext } from '../../hosts/driver.js';
import { backendSpec } from '../backends/registry.js';
import { observationProblems, parseNftTables, planReset, type ClusterObservation, type ResetStep } from './reset-plan.js';

/** How long a client that ended its input gets to exit (and close its sessions) before kill -9. */
const CLIENT_EXIT_MS = 1000;

/** Each part asked of the system, whichever provider runs it: the nodes' states, the clock files, nft in every host, the client processes. */
export async function observeCluster(c: Cluster): Promise<ClusterObservation> {
  const nodes = await Promise.all(c.nodes.map(async (n) => ({ name: n.name, ...(await n.observe()) })));
  const clocks = clockFiles(c).map((file) => ({ file, offsetMs: readClockOffset(file) }));
  const nftTables = await Promise.all(
    allHosts(c.plan).map(async (h) => ({ namespace: h.namespace, tables: await c.nftList(h.namespace).then(parseNftTables, () => undefined) })),
  );
  const clientProcesses = runClients(c).map((p) => p.name);
  return { nodes, clocks, nftTables, clientProcesses };
}

/**
 * Every clock offset file of the run: the run's clock directory (servers' and clients'), and each server's own
 * file where a provider keeps them elsewhere (the containers provider's clock volume when the harness itself
 * runs in a container).
 */
function clockFiles(c: Cluster): string[] {
  const dir = join(c.runDir, CLOCK_DIR);
  let inDir: string[] = [];
  try {
    inDir = readdirSync(dir)
      .filter((f) => f.endsWith('.offset'))
      .map((f) => join(dir, f));
  } catch {
    // No clock directory (no clock library): only the servers' own files, if any.
  }
  const own = c.nodes.flatMap((n) => (n.clockFile !== undefined && existsSync(n.clockFile) ? [n.clockFile] : []));
  return [...new Set([...inDir, ...own])];
}

/** The runs' client processes still running; spares (the next run's, started during this one's recovery) are not left over: they have connected to nothing. */
function runClients(c: Cluster): ClientProcess[] {
  return c
    .clientHosts()
    .flatMap((h) => h.processes())
    .filter((p) => !c.spares.holds(p));
}

async function applyStep(c: Cluster, step: ResetStep): Promise<void> {
  switch (step.kind) {
    case 'end-clients': {
      const procs = runClients(c);
      await waitForExit(
        procs.map((p) => p.identity),
        CLIENT_EXIT_MS,
      );
      await Promise.all(procs.filter((p) => p.running()).map((p) => p.kill()));
      return;
    }
    case 'resume':
      return void (await c.node(step.node).resume());
    case 'restart':
      return c.node(step.node).restart();
    case 'clock-zero':
      return writeClockOffset(step.file, 0);
    case 'nft-delete':
      await c.nftRun(step.namespace, deleteTableScript(step.table));
  }
}

function contexts(c: Cluster, log: (line: string) => void): { backend: BackendName; ctx: ResetContext }[] {
  const backends = [...new Set(c.plan.nodes.map((n) => n.backend))];
  return backends.map((backend) => ({ backend, ctx: { plan: c.plan, nodes: c.plan.nodes.filter((n) => n.backend === backend), log } }));
}

/**
 * Every fault healed (the nemesis's own record first, then whatever is still
 * observed), the delay proxies closed, client processes ended, killed nodes
 * restarted, paused ones resumed, clocks at 0, then each backend's lock state
 * cleared. Returns the steps taken beyond the nemesis's healing.
 */
export async function resetCluster(c: Cluster, log: (line: string) => void): Promise<ResetStep[]> {
  await c.nemesis.healAll().catch((err: unknown) => log(`reset: heal: ${messageOf(err)}`));
  await c.nemesis.close();
  const steps = planReset(await observeCluster(c));
  // Clients first (a live one could take the lock again), then the network, then servers and clocks.
  for (const kind of ['end-clients', 'nft-delete', 'restart', 'resume', 'clock-zero'] as const) {
    await Promise.all(steps.filter((s) => s.kind === kind).map((s) => applyStep(c, s)));
  }
  await Promise.all(contexts(c, log).map(({ backend, ctx }) => backendSpec(backend).reset.reset(ctx)));
  return steps;
}

/** The clean check: nothing of an earlier run left, every node answering, roles as planned, clocks at 0. */
export async function cleanCheck(c: Cluster, log: (line: string) => void): Promise<CleanCheck> {
  const t0 = Date.now();
  const general = observationProblems(await observeCluster(c));
  const perBackend = await Promise.all(
    contexts(c, log).map(({ backend, ctx }) =>
      backendSpec(backend)
        .reset.check(ctx)
        .catch((err: unknown) => [`${backend}: check failed: ${messageOf(err)}`]),
    ),
  );
  const problems = [...general, ...perBackend.flat()];
  return { ok: problems.length === 0, problems, ms: Date.now() - t0 };
}
