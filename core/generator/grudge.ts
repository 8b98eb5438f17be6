/**
 * Partitions as grudges (Jepsen's model): a grudge maps a host to the hosts it
 * drops traffic from. All functions here are pure; `firewall.ts` applies a
 * grudge with one nftables table per grudging host.
 *
 * Grudges are one-way by nature, but TCP needs packets both ways, so a single
 * "a drops b" already cuts every TCP connection between a and b. Results are
 * canonical: keys and lists sorted, hosts with an empty list left out.
 */
import { shuffle, type Rng } from './rng.js';

export type Grudge = Readonly<Record<string, readonly string[]>>;

function canonical(entries: Iterable<[string, Iterable<string>]>): Grudge {
  const merged = new Map<string, Set<string>>();
  for (const [host, drops] of entries) {
    const set = merged.get(host) ?? new Set<string>();
    for (const d of drops) if (d !== host) set.add(d);
    merged.set(host, set);
  }
  const out: Record<string, string[]> = {};
  for (const host of [...merged.keys()].sort()) {
    const drops = [...(merged.get(host) ?? [])].sort();
    if (drops.length > 0) out[host] = drops;
  }
  return out;
}

/** No host talks to any host outside its own component. */
export function completeGrudge(components: readonly (readonly string[])[]): Grudge {
  const all = components.flat();
  return canonical(components.flatMap((c) => c.map((h): [string, string[]] => [h, all.filter((o) => !c.includes(o))])));
}

/** One host cut off from all the others, both ways. */
export function isolateOne(hosts: readonly string[], target: string): Grudge {
  if (!hosts.includes(target)) throw new RangeError(`\`${target}\` is not one of ${hosts.join(', ')}`);
  return completeGrudge([[target], hosts.filter((h) => h !== target)]);
}

/** Split in order: the first floor(n/2) hosts, then the rest (the larger side for odd n). */
export function halvesOf(ordered: readonly string[]): [string[], string[]] {
  const k = Math.floor(ordered.length / 2);
  return [ordered.slice(0, k), ordered.slice(k)];
}

/** Two random halves that cannot talk to each other. */
export function randomHalves(hosts: readonly string[], rng: Rng): Grudge {
  return completeGrudge(halvesOf(shuffle(hosts, rng)));
}

/**
 * Every host sees a majority, but no two hosts see the same majority (Jepsen's
 * majorities-ring): around the ring, each host keeps the window of
 * floor(n/2)+1 hosts centred on itself and drops the rest. For 5 hosts each
 * sees its two ring neighbours. For 3 hosts the windows are lopsided (a drops
 * b, b drops c, c drops a) and, with TCP, every pair is cut.
 */
export function majoritiesRingOf(ring: readonly string[]): Grudge {
  const n = ring.length;
  const m = Math.floor(n / 2) + 1;
  const back = Math.floor(m / 2);
  return canonical(
    ring.map((host, i): [string, string[]] => {
      const window = new Set(Array.from({ length: m }, (_, k) => ring[(i - back + k + n) % n] as string));
      return [host, ring.filter((h) => !window.has(h))];
    }),
  );
}

export function majoritiesRing(hosts: readonly string[], rng: Rng): Grudge {
  return majoritiesRingOf(shuffle(hosts, rng));
}

/**
 * Two halves, with one host (the first of the second half) that both halves
 * still talk to: a bridge between two sides that cannot see each other.
 */
export function bridgeOf(ordered: readonly string[]): Grudge {
  const [left, right] = halvesOf(ordered);
  const bridge = right[0];
  const g = completeGrudge([left, right]);
  return canonical(
    Object.entries(g)
      .filter(([h]) => h !== bridge)
      .map(([h, drops]): [string, string[]] => [h, drops.filter((d) => d !== bridge)]),
  );
}

export function bridge(hosts: readonly string[], rng: Rng): Grudge {
  return bridgeOf(shuffle(hosts, rng));
}

/** Every host of `a` cut off from every host of `b`, both ways; other links untouched. */
export function cutOff(a: readonly string[], b: readonly string[]): Grudge {
  return canonical([...a.map((h): [string, readonly string[]] => [h, b]), ...b.map((h): [string, readonly string[]] => [h, a])]);
}

/** A client that cannot reach some servers (or they it). */
export function clientFromServers(client: string, servers: readonly string[]): Grudge {
  return cutOff([client], servers);
}

/** A client that cannot reach the protected resource, while it still reaches the lock service. */
export function clientFromResource(client: string, resource: string | readonly string[]): Grudge {
  return cutOff([client], typeof resource === 'string' ? [resource] : resource);
}

/** The union of several grudges. */
export function mergeGrudges(...grudges: readonly Grudge[]): Grudge {
  return canonical(grudges.flatMap((g) => Object.entries(g)));
}

/** Unordered pairs `a|b` (a < b) whose traffic a grudge blocks in at least one direction. */
export function blockedPairs(grudge: Grudge): string[] {
  const pairs = new Set<string>();
  for (const [h, drops] of Object.entries(grudge)) for (const d of drops) pairs.add([h, d].sort().join('|'));
  return [...pairs].sort();
}

/** Every host a grudge names. */
export function grudgeHosts(grudge: Grudge): string[] {
  return [...new Set(Object.entries(grudge).flatMap(([h, drops]) => [h, ...drops]))].sort();
}
