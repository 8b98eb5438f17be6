import { describe, expect, it } from 'vitest';
import { allHosts, BACKENDS, namespacesOf, planClientHost, planCluster } from '../../core/cluster/cluster-plan.js';
import {
  affordableSlots,
  defaultGroupedSlots,
  defaultWarmSlots,
  defaultSlots,
  isSlotName,
  MAX_SLOTS,
  slotOfName,
  slotPrefix,
  slotSubnet,
} from '../../core/cluster/slots.js';
import { slotStateFile } from '../../runtime/hosts/paths.js';
import { conflictingRoutes } from '../../runtime/cluster/preflight.js';

const slots = Array.from({ length: MAX_SLOTS }, (_, s) => s);

/** Every machine-wide name a plan makes: namespaces, and the veths on the root namespace and the switch. */
function namesOf(slot: number): string[] {
  const plan = planCluster({ backends: BACKENDS, slot });
  plan.clients.push(planClientHost(plan, 'a-long-client-name-1'));
  return [...namespacesOf(plan), plan.bridge, plan.control.ifname, plan.control.switchIfname, ...allHosts(plan).flatMap((h) => [h.ifname, h.switchIfname])];
}

describe('slots', () => {
  it('slot 0 keeps the names and /24 of every version before slots', () => {
    const plan = planCluster({ backends: ['redis'] });
    expect([plan.slot, plan.prefix, plan.subnet, plan.nodes[0]?.namespace, plan.control.ifname]).toEqual([0, 'fc-', '10.77.0', 'fc-redis1', 'fc-ctl']);
    expect(slotStateFile('/run/fencecheck/cluster.json', 0)).toBe('/run/fencecheck/cluster.json');
  });

  it("no name of one slot is another slot's, and every name belongs to its slot", () => {
    const bySlot = slots.map(namesOf);
    for (const [s, names] of bySlot.entries()) {
      for (const n of names) expect([n, slotOfName(n)]).toEqual([n, s]);
      for (const [t, other] of bySlot.entries()) if (t !== s) expect(names.filter((n) => other.includes(n))).toEqual([]);
    }
  });

  it('keeps every interface name within the 15 characters the kernel allows, in every slot', () => {
    for (const s of slots) {
      const plan = planCluster({ backends: BACKENDS, slot: s });
      plan.clients.push(planClientHost(plan, 'client-twenty-chars'));
      const ifnames = [plan.bridge, plan.control.ifname, plan.control.switchIfname, ...allHosts(plan).flatMap((h) => [h.ifname, h.switchIfname])];
      expect(ifnames.filter((n) => n.length > 15)).toEqual([]);
    }
  });

  it('gives each slot its own /24 above the chosen one, and refuses a slot with none left', () => {
    expect(slots.map((s) => planCluster({ backends: ['redis'], slot: s }).subnet)).toEqual(slots.map((s) => `10.77.${s}`));
    expect(planCluster({ backends: ['redis'], subnet: '192.168.40.0/24', slot: 3 }).nodes[0]?.ip).toBe('192.168.43.11');
    expect(() => slotSubnet('10.77.250.0/24', 7)).toThrow(/no \/24 above/);
    expect(() => planCluster({ backends: ['redis'], slot: MAX_SLOTS })).toThrow(RangeError);
    expect(() => slotPrefix(-1)).toThrow(RangeError);
  });

  it('reads a name to its slot, and nothing else as a slot', () => {
    expect(['fc-redis1', 'fc3-redis1', 'fc7-ctl', 'fc0-x', 'fc03-x', 'fc8-x', 'fcx-y', 'xfc-y', 'fc-'].map(slotOfName)).toEqual([
      0,
      3,
      7,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      0,
    ]);
    expect(isSlotName('fc2-sw', 2)).toBe(true);
    expect(isSlotName('fc2-sw', 0)).toBe(false);
    expect(isSlotName('fc-sw', 2)).toBe(false);
  });

  it("gives each slot its own state file beside slot 0's", () => {
    expect(slotStateFile('/run/fencecheck/cluster.json', 3)).toBe('/run/fencecheck/cluster-3.json');
    expect(slotStateFile('/tmp/state', 2)).toBe('/tmp/state-2');
  });

  it("does not take a neighbour slot's route for a conflict", () => {
    const routes = [
      { dst: '10.77.1.0/24', dev: 'fc1-ctl' },
      { dst: '10.77.2.0/24', dev: 'eth0' },
    ];
    expect(conflictingRoutes(routes, '10.77.1')).toEqual([]);
    expect(conflictingRoutes(routes, '10.77.2')).toEqual([{ dst: '10.77.2.0/24', dev: 'eth0' }]);
  });

  it('affords slots from cores and memory, at least one, at most MAX_SLOTS', () => {
    expect(affordableSlots({ cores: 2, memoryMb: 24_000 })).toBe(4);
    expect(defaultSlots({ cores: 2, memoryMb: 24_000 })).toBe(2);
    expect(affordableSlots({ cores: 2, memoryMb: 1500 })).toBe(1);
    expect(defaultSlots({ cores: 1, memoryMb: 500 })).toBe(1);
    expect(affordableSlots({ cores: 64, memoryMb: 512_000 })).toBe(MAX_SLOTS);
  });

  it('a batch of groups takes a slot a group within what the machine affords, never fewer than one a core', () => {
    expect(defaultWarmSlots({ cores: 2, memoryMb: 24_000 })).toBe(4);
    expect(defaultWarmSlots({ cores: 2, memoryMb: 1500 })).toBe(1);
    expect(defaultWarmSlots({ cores: 64, memoryMb: 512_000 })).toBe(MAX_SLOTS);
    expect(defaultGroupedSlots({ cores: 2, memoryMb: 24_000 }, 4)).toBe(4);
    expect(defaultGroupedSlots({ cores: 2, memoryMb: 24_000 }, 3)).toBe(3);
    expect(defaultGroupedSlots({ cores: 2, memoryMb: 24_000 }, 9)).toBe(4);
    expect(defaultGroupedSlots({ cores: 4, memoryMb: 24_000 }, 1)).toBe(4);
    expect(defaultGroupedSlots({ cores: 1, memoryMb: 900 }, 4)).toBe(1);
  });
});
