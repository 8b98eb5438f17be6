/**
 * Real clusters on one Linux machine: the library the workload runner uses.
 *
 * Every server node and every client runs in its own network namespace
 * (`fc-<node>`, `fc-c-<client>`), all attached to one bridge in a switch
 * namespace (`fc-sw`); the control process (this one, in the root namespace)
 * has its own veth on that bridge (`fc-ctl`, 10.77.0.1), so it reaches every
 * node directly while partitions inside the namespaces never touch it.
 *
 *   const cluster = await startCluster({ backends: ['etcd', 'postgres'], clientHosts: ['c1', 'c2'] });
 *   cluster.endpoints('etcd')        // [{ backend, node: 'etcd1', host: '10.77.0.31', port: 2379, namespace, url }, ...]
 *   const c1 = cluster.clientHost('c1');
 *   const proc = c1.spawn(['node', 'dist/client.js', '--id', '1'])  // a lock client as its own process, in c1
 *   await cluster.nemesis.partition(clientFromResource('c1', 'pg1'));
 *   await cluster.nemesis.pause(proc); await cluster.nemesis.clockOffset('c2', 20_000);
 *   await cluster.nemesis.kill(await cluster.leader('etcd') ?? 'etcd1');
 *   await cluster.nemesis.restart('etcd1', { delayMs: 1000 });
 *   await cluster.nemesis.healAll();
 *   await cluster.teardown();        // also runs on SIGINT, SIGTERM, SIGHUP and at exit
 *
 * Lifecycle: startCluster checks the machine, takes the machine-wide cluster
 * lock (one cluster per machine; `busyTimeoutMs` waits for another fencecheck
 * process's cluster to end), reclaims leftovers of an earlier run, writes the
 * state file (/run/fencecheck/cluster.json) before creating
 * anything, builds the topology, then prepares, starts and probes every
 * backend in parallel. `teardown()` stops processes by pid (comm and start
 * time checked), deletes the namespaces (their veths and nft tables go with
 * them) and the data dirs, keeps the logs (`<runDir>/logs/<node>.log`) and
 * removes the state file. After a SIGKILL of the harness, `reclaim()` (what
 * `fencecheck down` and the next startCluster call) does the same from the
 * state file, and finds by name and by namespace whatever it does not list.
 */
export { startCluster, type StartClusterOptions } from './start-cluster.js';
export { Cluster, type Endpoint } from './cluster.js';
export { ClientHost, type ClientProcess, type ClientSpawnOptions } from '../hosts/client-host.js';
export type { BackendNode, BackendSpec } from '../hosts/driver.js';
export type { ServerNode } from './server-node.js';
export { BACKENDS, type BackendName, type ClusterPlan, type HostPlan, type NodePlan } from '../../core/cluster/cluster-plan.js';
export type { BackendOptions } from './backends/registry.js';
export type { RedisPersistence } from '../../core/plan/redis-persistence.js';
export { zookeeperMode } from './backends/zookeeper.js';
export { etcdStatus } from './backends/etcd.js';
export { reclaim, type ReclaimReport } from './reclaim.js';
export { acquireClusterLock, clusterLockHeld, type ClusterLock } from './cluster-lock.js';
export { runDoctor, type DoctorCheck } from './doctor.js';
export { setup } from './setup.js';
export { ClusterStartError, ClusterBusyError, CommandError, PreflightError, UnsupportedFaultError } from '../hosts/cluster-errors.js';
export * from '../nemesis/index.js';
