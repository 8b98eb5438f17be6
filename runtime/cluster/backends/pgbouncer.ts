/**
 * PgBouncer 1.18 (Debian's) in front of the advisory lock's PostgreSQL
 * (pgl1), in its own namespace, in **transaction pooling** mode: as teams
 * deploy it, and as the issue trackers describe it breaking session-level
 * advisory locks. In transaction mode a client owns a server connection only
 * for one transaction; its next statement may run on another one. A session
 * lock taken by `pg_try_advisory_lock` belongs to whichever server connection
 * ran it, so an unlock can land on another connection (it returns false and
 * the lock stays held by a connection nobody is using), and another client
 * whose statement lands on the holding connection re-enters the lock (session
 * locks are re-entrant within a session): two holders.
 *
 * `default_pool_size` is small (2) on purpose: five clients share two server
 * connections, so the reassignment happens within seconds, not by luck.
 * PgBouncer refuses to run as root; it runs as the postgres user, trust auth
 * (the user must still be listed in its auth_file).
 */
import { join } from 'node:path';
import { type ServerSpec, type SpecContext } from '../../hosts/driver.js';
import { nodesOf, type ClusterPlan, type NodePlan } from '../../../core/cluster/cluster-plan.js';
import { serverSystem } from '../../../core/systems/servers.js';
import { POSTGRES_USER, postgresOwnedDir, postgresPing } from './postgres.js';

export const PGBOUNCER_POOL_SIZE = 2;

/** The server PgBouncer forwards to: the pg-advisory node (its ServerSystem's `pools`). */
function upstream(plan: ClusterPlan): NodePlan {
  const pooled = serverSystem('pgbouncer').pools!;
  const [server] = nodesOf(plan, pooled);
  if (!server) throw new RangeError(`the plan has a pgbouncer node but no ${pooled} node behind it`);
  return server;
}

/** pgbouncer.ini (pure). */
export function pgbouncerIni(node: NodePlan, plan: ClusterPlan, dataDir: string): string {
  const server = upstream(plan);
  return [
    '[databases]',
    `postgres = host=${server.ip} port=${server.port} dbname=postgres user=${POSTGRES_USER}`,
    '',
    '[pgbouncer]',
    `listen_addr = ${node.ip}`,
    `listen_port = ${node.port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dataDir, 'userlist.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${PGBOUNCER_POOL_SIZE}`,
    'reserve_pool_size = 0',
    // A login that failed while pgl1 was still starting is retried after 1 s, not the default 15 s.
    'server_login_retry = 1',
    'max_client_conn = 500',
    // JDBC sends it at start-up; PgBouncer would refuse the connection otherwise.
    'ignore_startup_parameters = extra_float_digits',
    `admin_users = ${POSTGRES_USER}`,
    // No log file and no pid file: stderr is the node's log, the harness holds the pid.
    'logfile =',
    'pidfile =',
    '',
  ].join('\n');
}

const write = (ctx: SpecContext, node: NodePlan, path: string, text: string) => ctx.execOnHost(node, ['sh', '-c', 'printf "%s" "$0" > "$1"', text, path]);

export function pgbouncerSpec(): ServerSpec {
  const ini = (node: NodePlan, ctx: SpecContext): string => join(ctx.dataDir(node), 'pgbouncer.ini');
  return {
    backend: 'pgbouncer',
    comm: 'pgbouncer',
    // PgBouncer refuses to run as root: setpriv runs it as postgres.
    tools: ['pgbouncer', 'setpriv'],
    debianPackage: 'pgbouncer',
    scheme: 'postgres',
    shape: {},
    wallClockPreload: true,
    // SIGTERM is PgBouncer 1.18's immediate shutdown (SIGINT waits for every client to leave).
    stop: { signal: 'SIGTERM', graceMs: 2000 },
    teardown: { signal: 'SIGTERM', graceMs: 500 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      const dir = await postgresOwnedDir(node, ctx);
      await write(ctx, node, ini(node, ctx), pgbouncerIni(node, ctx.plan, dir));
      await write(ctx, node, join(dir, 'userlist.txt'), `"${POSTGRES_USER}" ""\n`);
    },
    command(node: NodePlan, ctx: SpecContext) {
      return { argv: [ctx.tools.pgbouncer ?? 'pgbouncer', ini(node, ctx)], user: POSTGRES_USER };
    },
    // A statement through the pooler: ready once PgBouncer listens and pgl1 answers behind it.
    probe: (node: NodePlan) => postgresPing(node),
    describe: () => `transaction pooling, ${PGBOUNCER_POOL_SIZE} server connections`,
  };
}
