/**
 * Integration (real servers, root): a partition blocks traffic between
 * exactly the grudged pairs, heal restores it; loss applies to one link only.
 * Hosts: five Redis (redlock), PostgreSQL (the resource), two client hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import {
  blockedPairs,
  bridgeOf,
  clientFromResource,
  clientFromServers,
  isolateOne,
  majoritiesRingOf,
  mergeGrudges,
  randomHalves,
  type Grudge,
} from '../../core/generator/grudge.js';
import { Prng } from '../../core/random/prng.js';
import { runCommand } from '../../runtime/hosts/run-command.js';
import { SHARED_MACHINE, tcpReachable } from './helpers.js';

let cluster: Cluster;
const servers = ['redlock1', 'redlock2', 'redlock3', 'redlock4', 'redlock5'];

beforeAll(async () => {
  cluster = await startCluster({ ...SHARED_MACHINE, backends: ['redlock', 'postgres'], clientHosts: ['c1', 'c2'] });
});

afterAll(async () => {
  await cluster?.teardown();
});

/** For every host and every server other than itself: can it open a TCP connection? Returns the pairs that cannot. */
async function unreachablePairs(): Promise<string[]> {
  const hosts = [...cluster.plan.nodes, ...cluster.plan.clients];
  const probes = hosts.flatMap((from) =>
    cluster.plan.nodes
      .filter((to) => to !== from)
      .map(async (to) => ((await tcpReachable(from.namespace, to.ip, to.port)) ? undefined : [from.name, to.name].sort().join('|'))),
  );
  return [...new Set((await Promise.all(probes)).filter((p): p is string => p !== undefined))].sort();
}

async function expectExactly(grudge: Grudge): Promise<void> {
  await cluster.nemesis.partition(grudge);
  // Client-to-client pairs are not probed (clients do not listen), and no grudge here has one.
  expect(await unreachablePairs()).toEqual(blockedPairs(grudge));
}

describe('partitions', () => {
  it('nothing is blocked before any fault', async () => {
    expect(await unreachablePairs()).toEqual([]);
  });

  it.each([
    ['isolate one', isolateOne(servers, 'redlock3')],
    ['bridge', bridgeOf(servers)],
    ['majorities ring', majoritiesRingOf(servers)],
    ['random halves (seed 11)', randomHalves(servers, new Prng(11).asRng())],
    ['a client from some servers', clientFromServers('c1', ['redlock1', 'redlock2'])],
    ['a client from the resource', clientFromResource('c2', 'pg1')],
    ['clients and servers at once', mergeGrudges(clientFromResource('c1', 'pg1'), isolateOne(servers, 'redlock5'))],
  ])('%s blocks exactly the grudged pairs', async (_name, grudge) => {
    await expectExactly(grudge);
  });

  it('the control process is never cut off', async () => {
    await cluster.nemesis.partition(isolateOne(servers, 'redlock1'));
    for (const n of cluster.plan.nodes) {
      const r = await runCommand('timeout', ['0.6', 'bash', '-c', `exec 3<>/dev/tcp/${n.ip}/${n.port}`], { reject: false });
      expect(r.exitCode, n.name).toBe(0);
    }
  });

  it('heal restores every pair and removes every table', async () => {
    await cluster.nemesis.heal();
    expect(await unreachablePairs()).toEqual([]);
    for (const h of [...cluster.plan.nodes, ...cluster.plan.clients]) {
      const tables = await runCommand('ip', ['netns', 'exec', h.namespace, 'nft', 'list', 'tables']);
      expect(tables.stdout, h.name).toBe('');
    }
  });
});

describe('packet loss', () => {
  it('100 % loss cuts that one link only; 0 % restores it', async () => {
    await cluster.nemesis.loss('c1', 'redlock1', 100);
    expect(await unreachablePairs()).toEqual(['c1|redlock1']);
    const rules = await runCommand('ip', ['netns', 'exec', 'fc-redlock1', 'nft', 'list', 'table', 'ip', 'fc-loss']);
    expect(rules.stdout).toContain('ip saddr 10.77.0.100 drop');
    await cluster.nemesis.loss('c1', 'redlock1', 0);
    expect(await unreachablePairs()).toEqual([]);
  });

  it('loss around a node: every link of redlock3 at once, concurrent calls included', async () => {
    await Promise.all([cluster.nemesis.loss('redlock3', ['c1', 'c2'], 100), cluster.nemesis.loss('redlock3', 'pg1', 100)]);
    expect(await unreachablePairs()).toEqual(['c1|redlock3', 'c2|redlock3', 'pg1|redlock3']);
    await cluster.nemesis.heal();
    expect(await unreachablePairs()).toEqual([]);
  });

  it('30 % loss drops about 30 % of packets each way', async () => {
    await cluster.nemesis.loss('c2', 'redlock2', 30);
    // A connect within 0.3 s needs the SYN and the SYN-ACK through (a lost SYN is
    // retransmitted only after 1 s): p = 0.7 * 0.7 = 0.49 per attempt.
    const target = cluster.node('redlock2').plan;
    let ok = 0;
    for (let batch = 0; batch < 5; batch++) {
      const results = await Promise.all(Array.from({ length: 20 }, () => tcpReachable('fc-c-c2', target.ip, target.port, 0.3)));
      ok += results.filter(Boolean).length;
    }
    console.log(`30 % loss each way: ${ok}/100 connects succeeded (expected about 49)`);
    expect(ok).toBeGreaterThan(25);
    expect(ok).toBeLessThan(75);
    await cluster.nemesis.heal();
    expect(await unreachablePairs()).toEqual([]);
  });
});
