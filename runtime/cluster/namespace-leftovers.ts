/**
 * What runs on the namespaces provider leave, found by the project's prefix
 * (no state file needed) and removed: any process still inside a project
 * namespace, or naming one of the run's data dirs anywhere; the namespaces
 * (which take their veths and nftables tables with them); the control's veth;
 * project tables in the root namespace (fencecheck creates none there; this
 * is a backstop, slot 0's).
 *
 * One slot at a time (core/cluster/slots.ts): only its namespaces and links
 * are found by name, so a reclaim of one slot never touches a cluster running
 * in another.
 */
import { spawnSync } from 'node:child_process';
import { PREFIX } from '../../core/cluster/cluster-plan.js';
import { which } from '../hosts/binaries.js';
import { runCommand } from '../hosts/run-command.js';
import type { ClusterState } from '../hosts/state-file.js';
import { killPids } from '../hosts/stop-processes.js';
import { waitUntilEndedSync } from '../hosts/wait-ended-sync.js';
import { removableDataDirs } from './data-dirs.js';
import { pidsInNamespaces, pidsNaming } from './namespace-pids.js';
import type { ProviderLeftovers } from './reclaim-report.js';
import { teardownScript } from './topology-script.js';
import { deleteTopology, projectNamespaces, projectRootLinks } from './topology.js';

export const namespaceLeftovers: ProviderLeftovers = {
  async reclaim(state, slot) {
    const namespaces = projectNamespaces(slot);
    const strayPids = await killStrays(namespaces, state ? removableDataDirs(state) : []);
    const links = projectRootLinks(slot);
    const rootTables = slot === 0 ? await rootProjectTables() : [];
    await deleteTopology(namespaces, links);
    const nft = which('nft');
    for (const t of rootTables) if (nft) await runCommand(nft, ['delete', 'table', ...t.split(' ')], { reject: false });
    const nsTables = (state?.nftTables ?? []).filter((t) => namespaces.includes(t.namespace)).map((t) => `${t.namespace}: ${t.family} ${t.name}`);
    return { strayPids, namespaces, links, nftTables: [...nsTables, ...rootTables.map((t) => `root: ${t}`)] };
  },

  reclaimSync(_state: ClusterState | undefined, slot) {
    const namespaces = projectNamespaces(slot);
    const strays = [...pidsInNamespaces(namespaces).keys()];
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    waitUntilEndedSync(
      strays.map((pid) => ({ pid })),
      3000,
    );
    const script = teardownScript(namespaces, projectRootLinks(slot));
    if (script.length > 0) spawnSync('ip', ['-force', '-batch', '-'], { input: script.join('\n') + '\n', stdio: ['pipe', 'ignore', 'ignore'] });
  },
};

async function rootProjectTables(): Promise<string[]> {
  const nft = which('nft');
  if (!nft) return [];
  const out = await runCommand(nft, ['list', 'tables'], { reject: false });
  return out.stdout
    .split('\n')
    .map((l) => l.trim().replace(/^table /, ''))
    .filter((t) => t.split(' ')[1]?.startsWith(PREFIX));
}

/**
 * Every process still inside our namespaces, or naming one of the run's data
 * dirs anywhere (an `ip netns exec … cp -a` still between its fork and its
 * setns), killed until none is left: one scan misses a child forked after it
 * (initdb forks its bootstrap server), which would live on and write into a
 * data dir the reclaim has just removed. A few rounds at most; each waits for
 * its kills.
 */
async function killStrays(namespaces: readonly string[], dataDirs: readonly string[]): Promise<number[]> {
  const killed: number[] = [];
  for (let round = 0; round < 5; round++) {
    const pids = [...new Set([...pidsInNamespaces(namespaces).keys(), ...pidsNaming(dataDirs)])].filter((p) => !killed.includes(p));
    if (pids.length === 0) break;
    killed.push(...(await killPids(pids)));
  }
  return killed;
}
