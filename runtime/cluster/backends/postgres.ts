/**
 * PostgreSQL 15: the protected resource, one server in its own namespace.
 * PostgreSQL refuses to run as root, so initdb and the server run as the
 * `postgres` user (through setpriv, which execs: the pid we hold is the
 * postmaster's). Authentication is `trust` for the project's /24 only; unix
 * sockets are off (their path length limit would break on deep run dirs).
 *
 * The postmaster leads its process group, so pause, resume and kill reach its
 * backends too, as they would on a frozen or crashed machine.
 */
import { chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import pg from 'pg';
import { asUser, type ServerSpec, type SpecContext } from '../../hosts/driver.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import type { BackendName, NodePlan } from '../../../core/cluster/cluster-plan.js';
import { initFromTemplate } from './postgres-template.js';

import { POSTGRES_USER, postgresUrl } from '../../hosts/postgres-session.js';

export { POSTGRES_USER, postgresUrl };

/** The server's arguments (pure): everything on the command line, nothing edited in postgresql.conf. */
export function postgresArgs(node: NodePlan, dataDir: string): string[] {
  const settings = {
    listen_addresses: node.ip,
    port: String(node.port),
    unix_socket_directories: '',
    max_connections: '200',
    shared_buffers: '32MB',
    logging_collector: 'off',
    log_line_prefix: '%m [%p] ',
    // Dynamic shared memory as files in the data dir, not /dev/shm/PostgreSQL.*: a server that is SIGKILLed (a
    // teardown past its grace) left its segments in /dev/shm, where nothing of the project's name finds them.
    dynamic_shared_memory_type: 'mmap',
  };
  return ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

export async function postgresPing(node: NodePlan, timeoutMs = 1000): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl(node), connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `pg-advisory`: the same server as the lock service's own node (the pg-advisory layout of core/cluster/cluster-plan.ts). */
/** The node's data dir made and given to the postgres user (PostgreSQL and PgBouncer both refuse root). */
export async function postgresOwnedDir(node: NodePlan, ctx: SpecContext): Promise<string> {
  const user = await ctx.userIds(POSTGRES_USER);
  if (!user)
    throw new PreflightError(
      `There is no \`${POSTGRES_USER}\` user on this machine.`,
      'Install PostgreSQL with `npm run setup` (the package creates the user).',
    );
  const dir = ctx.dataDir(node);
  await mkdir(dirname(dir), { recursive: true });
  // The postgres user must traverse the parent whatever the umask (see sharedDataDir).
  await chmod(dirname(dir), 0o755);
  await mkdir(dir, { mode: 0o700 });
  // On the node's host, as its root: the harness itself may not be root (the containers provider, a docker-group user).
  await ctx.execOnHost(node, ['chown', `${user.uid}:${user.gid}`, dir]);
  return dir;
}

/** `backend`: the resource's postgres, or another PostgreSQL backend (pg-advisory, the lock's own: its adapter says so). */
export function postgresSpec(backend: BackendName = 'postgres'): ServerSpec {
  return {
    backend,
    comm: 'postgres',
    tools: ['postgres', 'initdb', 'setpriv'],
    debianPackage: 'postgresql',
    scheme: 'postgres',
    shape: {},
    wallClockPreload: true,
    sysvSharedMemory: true,
    // SIGINT is "fast shutdown" (SIGTERM would wait for every client to leave).
    stop: { signal: 'SIGINT', graceMs: 5000 },
    // Fast shutdown also removes the SysV shared memory segment, which a SIGKILL would leak.
    teardown: { signal: 'SIGINT', graceMs: 1500 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      const dir = await postgresOwnedDir(node, ctx);
      const program = ctx.tools.initdb ?? 'initdb';
      const args = ['-A', 'trust', '-U', POSTGRES_USER, '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
      // Inside the node's namespace, so a harness killed mid-initdb leaves nothing that reclaim cannot find.
      const initdb = (into: string) =>
        ctx.execOnHost(node, asUser(POSTGRES_USER, [program, '-D', into, ...args], ctx.tools.setpriv), { timeoutMs: 60_000 }).then(() => undefined);
      if (ctx.pgTemplate) {
        // Where this machine's files are the node's too (namespaces): a copy of the cluster's one initdb (./postgres-template.ts).
        const user = (await ctx.userIds(POSTGRES_USER))!;
        await initFromTemplate(ctx.pgTemplate, dir, {
          initdb,
          chown: (d) => ctx.execOnHost(node, ['chown', `${user.uid}:${user.gid}`, d]).then(() => undefined),
          copy: (t, d) =>
            ctx.execOnHost(node, asUser(POSTGRES_USER, ['cp', '-a', `${t}/.`, d], ctx.tools.setpriv), { timeoutMs: 60_000 }).then(() => undefined),
        });
      } else await initdb(dir);
      // The file is the postgres user's: appended on the host too (see the chown above).
      await ctx.execOnHost(node, ['sh', '-c', 'printf "%s\\n" "$0" >> "$1"', `host all all ${ctx.plan.subnet}.0/24 trust`, `${dir}/pg_hba.conf`]);
    },
    command(node: NodePlan, ctx: SpecContext) {
      return { argv: [ctx.tools.postgres ?? 'postgres', ...postgresArgs(node, ctx.dataDir(node))], user: POSTGRES_USER };
    },
    probe: (node: NodePlan) => postgresPing(node),
    describe: () => 'PostgreSQL, trust auth',
  };
}
