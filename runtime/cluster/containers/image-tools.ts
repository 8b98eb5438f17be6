/**
 * Where the servers image has each program (Debian's paths in a stock
 * bookworm; PostgreSQL's server programs live under /usr/lib/postgresql/15).
 * The backend specs build their command lines from these, as they do from
 * the machine's own paths under the namespaces provider.
 */
import type { Tool } from '../../hosts/binaries.js';

export const IMAGE_TOOLS: Partial<Record<Tool, string>> = {
  'redis-server': '/usr/bin/redis-server',
  etcd: '/usr/bin/etcd',
  etcdctl: '/usr/bin/etcdctl',
  java: '/usr/bin/java',
  'zookeeper.jar': '/usr/share/java/zookeeper.jar',
  'slf4j-simple.jar': '/usr/share/java/slf4j-simple.jar',
  postgres: '/usr/lib/postgresql/15/bin/postgres',
  initdb: '/usr/lib/postgresql/15/bin/initdb',
  setpriv: '/usr/bin/setpriv',
  nft: '/usr/sbin/nft',
  pgbouncer: '/usr/sbin/pgbouncer',
  memcached: '/usr/bin/memcached',
};
