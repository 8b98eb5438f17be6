import { describe, expect, it } from 'vitest';
import { keyCount, leaseIds } from '../../../runtime/cluster/backends/etcd-reset.js';
import { replicationProblems } from '../../../runtime/cluster/backends/sentinel-reset.js';
import { parseZkDump, zkDumpProblems } from '../../../runtime/cluster/backends/zookeeper-reset.js';
import { nodesOf, planCluster } from '../../../core/cluster/cluster-plan.js';

// `dump` as ZooKeeper 3.8 (Debian) answered it on the leader of a fencecheck ensemble: no session; one
// session holding a lock znode; the same session just closed (captured from a real cluster).
const NO_SESSION = `SessionTracker dump:
Session Sets (0)/(0):
ephemeral nodes dump:
Sessions with Ephemerals (0):
Connections dump:
Connections Sets (1)/(1):
1 expire at Tue Dec 01 09:17:51 UTC 2026:
\tip: /10.77.0.1:41676 sessionId: 0x0
`;
const ONE_HOLDER = `SessionTracker dump:
Session Sets (1)/(1):
1 expire at Tue Dec 01 09:17:40 UTC 2026:
\t0x300001dd2a80000
ephemeral nodes dump:
Sessions with Ephemerals (1):
0x300001dd2a80000:
\t/fencecheck-lock/lock-x-0000000000
Connections dump:
Connections Sets (1)/(1):
1 expire at Tue Dec 01 09:17:51 UTC 2026:
\tip: /10.77.0.1:41678 sessionId: 0x0
`;
const CLOSED = `SessionTracker dump:
Session Sets (1)/(0):
0 expire at Tue Dec 01 09:17:40 UTC 2026:
ephemeral nodes dump:
Sessions with Ephemerals (0):
Connections dump:
Connections Sets (1)/(1):
1 expire at Tue Dec 01 09:17:51 UTC 2026:
\tip: /10.77.0.1:41692 sessionId: 0x0
`;

describe('ZooKeeper dump', () => {
  it('reads sessions and ephemeral znodes, never a connection line', () => {
    expect(parseZkDump(NO_SESSION)).toEqual({ sessions: 0, ephemeralSessions: 0, ephemerals: [] });
    expect(parseZkDump(ONE_HOLDER)).toEqual({ sessions: 1, ephemeralSessions: 1, ephemerals: ['/fencecheck-lock/lock-x-0000000000'] });
    expect(parseZkDump(CLOSED)).toEqual({ sessions: 0, ephemeralSessions: 0, ephemerals: [] });
  });

  it('a held lock znode and an open session are each a problem; a closed one is clean', () => {
    expect(zkDumpProblems(parseZkDump(NO_SESSION))).toEqual([]);
    expect(zkDumpProblems(parseZkDump(CLOSED))).toEqual([]);
    expect(zkDumpProblems(parseZkDump(ONE_HOLDER))).toEqual([
      'zookeeper: 1 sessions hold 1 ephemeral znodes (/fencecheck-lock/lock-x-0000000000)',
      'zookeeper: 1 sessions still open',
    ]);
  });
});

describe('etcd gateway answers', () => {
  it('zero values are left out of the JSON: no leases, no count', () => {
    expect(leaseIds({ header: {} })).toEqual([]);
    expect(leaseIds({ leases: [{ ID: '7587871393431570445' }, { ID: '7587871393431570447' }] })).toEqual(['7587871393431570445', '7587871393431570447']);
    expect(keyCount({ header: {} })).toBe(0);
    expect(keyCount({ count: '2' })).toBe(2);
  });
});

describe('Sentinel replication as planned', () => {
  const plan = planCluster({ backends: ['redis-sentinel'] });
  const data = nodesOf(plan, 'redis-sentinel').filter((n) => n.role === 'data');
  const [rs1, rs2, rs3] = [data[0]!, data[1]!, data[2]!];
  const addr = `${rs1.ip}:${rs1.port}`;
  const replica = (offset: number, masterHost = rs1.ip, linkUp = true) => ({ role: 'slave' as const, masterHost, linkUp, offset });

  it('the planned master with linked replicas at its offset is clean', () => {
    const states = [
      { node: rs1, state: { role: 'master' as const, offset: 100, connectedReplicas: 2 } },
      { node: rs2, state: replica(100) },
      { node: rs3, state: replica(100) },
    ];
    expect(replicationProblems(rs1, addr, states)).toEqual([]);
  });

  it('a moved master, a lagging replica, a broken link and a silent node are each named', () => {
    const states = [
      { node: rs1, state: replica(90, rs2.ip) },
      { node: rs2, state: { role: 'master' as const, offset: 100 } },
      { node: rs3, state: new Error('connect ECONNREFUSED') },
    ];
    expect(replicationProblems(rs1, `${rs2.ip}:${rs2.port}`, states)).toEqual([
      `the Sentinels name ${rs2.ip}:${rs2.port} as master, planned ${rs1.name} (${addr})`,
      `${rs1.name}: is a replica, planned master`,
      `${rs2.name}: not a linked replica of ${rs1.name}`,
      `${rs3.name}: not answering (connect ECONNREFUSED)`,
    ]);
    const lagging = [
      { node: rs1, state: { role: 'master' as const, offset: 100 } },
      { node: rs2, state: replica(80) },
      { node: rs3, state: replica(100, rs1.ip, false) },
    ];
    expect(replicationProblems(rs1, addr, lagging)).toEqual([
      `${rs2.name}: offset 80 behind the master's 100`,
      `${rs3.name}: not a linked replica of ${rs1.name}`,
    ]);
  });
});
