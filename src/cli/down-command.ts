/**
 * `fencecheck down`: tear down whatever fencecheck left on this machine (a
 * cluster from `fencecheck up`, or the remains of a run killed with SIGKILL),
 * in every slot. A slot whose harness still runs is left alone without
 * `--force` (the others are torn down; the command then says which, exit 254).
 */
import type { Command } from 'commander';
import { reclaimEverySlot } from '../../runtime/cluster/reclaim-every-slot.js';
import { assertPrivileged, isPrivileged } from '../../runtime/cluster/preflight.js';
import { dockerStatus } from '../../runtime/cluster/containers/docker-cli.js';

export function registerDownCommand(program: Command): void {
  program
    .command('down')
    .description('Stop every server and client process of fencecheck and delete its namespaces and its containers (by label).')
    .option('--keep-data', 'keep the data dirs (logs are always kept)')
    .option('--force', 'tear down even a cluster whose fencecheck process is still running')
    .option('--json', 'print what was removed as JSON')
    .action(async (flags: { json?: boolean; keepData?: boolean; force?: boolean }) => {
      // Namespaces need root to delete; a user in the docker group may still remove the containers.
      if (!isPrivileged() && !(await dockerStatus()).usable) assertPrivileged();
      // A live harness holds its slot's lock: its cluster is not a leftover, unless forced.
      const every = await reclaimEverySlot({ keepData: flags.keepData ?? false, force: flags.force ?? false });
      const r = every.report;
      if (flags.json) {
        process.stdout.write(JSON.stringify({ ...r, slots: every.slots, busySlots: every.busy.map((b) => b.message) }, null, 2) + '\n');
        if (every.busy[0]) process.exitCode = every.busy[0].exitCode;
        return;
      }
      const c = r.containers;
      const nothing =
        r.processes.length +
          r.strayPids.length +
          r.namespaces.length +
          r.links.length +
          r.dataDirsRemoved.length +
          r.sharedMemory.length +
          c.containers.length +
          c.networks.length +
          c.volumes.length ===
          0 && !r.stateFile;
      const lines = nothing
        ? ['nothing to tear down']
        : [
            `processes: ${r.processes.length} recorded${r.strayPids.length ? `, ${r.strayPids.length} unrecorded (pids ${r.strayPids.join(' ')})` : ''}`,
            `namespaces: ${r.namespaces.length}${r.links.length ? `; links: ${r.links.join(' ')}` : ''}${r.nftTables.length ? `; nft tables: ${r.nftTables.length}` : ''}`,
            ...(c.containers.length + c.networks.length + c.volumes.length
              ? [`containers: ${c.containers.length}; networks: ${c.networks.join(' ') || 0}; volumes: ${c.volumes.length} (label org.fencecheck.project)`]
              : []),
            ...(r.sharedMemory.length
              ? [`shared memory: ${r.sharedMemory.length} abandoned PostgreSQL segment(s) removed (${r.sharedMemory.join(', ')})`]
              : []),
            ...(r.runDir ? [`logs kept in ${r.runDir}/logs${r.dataDirsRemoved.length ? `; data dirs removed: ${r.dataDirsRemoved.length}` : ''}`] : []),
            // Only PostgreSQL templates of ended commands (no slot had a run): named, since no run dir says whose they were.
            ...(!r.runDir && r.dataDirsRemoved.length ? [`data dirs removed: ${r.dataDirsRemoved.join(' ')}`] : []),
          ];
      const slots = every.slots.some((s) => s !== 0) ? `slots: ${every.slots.join(', ')}\n` : '';
      process.stdout.write(`${lines.join('\n')}\n${slots}down in ${(r.elapsedMs / 1000).toFixed(2)} s\n`);
      // A slot still in use is said last, as the error it is (its command's cluster is not a leftover).
      if (every.busy[0]) throw every.busy[0];
    });
}
