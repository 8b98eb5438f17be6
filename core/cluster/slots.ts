/**
 * Slots: several complete clusters on one machine, sharing nothing. A slot is
 * a number; everything machine-wide a cluster makes is named from it (pure):
 *
 *   slot 0   prefix `fc-`   (today's names: `fc-redis1`, `fc-ctl`, `fc-sw`), the default /24 as given
 *   slot s   prefix `fc<s>-` (`fc2-redis1`, `fc2-ctl`), the /24 `s` above it (10.77.2.0/24)
 *
 * Slot 0 keeps the names every earlier version used, so a cluster left by one
 * is still found. A prefix of one slot is never a prefix of another's names
 * (`fc-` does not start `fc2-`), so a slot's reclaim cannot touch a live
 * neighbour. The state file and the machine lock are per slot too
 * (runtime/cluster/slot-files.ts, cluster-lock.ts).
 */

/** At most this many slots: the third octet of the /24 moves by the slot, and eight clusters already outgrow a big machine. */
export const MAX_SLOTS = 8;

const SLOT_NAME = /^fc(\d*)-/;

export function assertSlot(slot: number): void {
  if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_SLOTS) throw new RangeError(`Expected a slot from 0 to ${MAX_SLOTS - 1}, got ${slot}`);
}

/** The prefix of every name a slot's cluster makes: `fc-` for slot 0, `fc<s>-` for the others. */
export function slotPrefix(slot: number): string {
  assertSlot(slot);
  return slot === 0 ? 'fc-' : `fc${slot}-`;
}

/** The slot a project name belongs to (`fc3-redis1` → 3, `fc-sw` → 0), or undefined when it is not one of the project's. */
export function slotOfName(name: string): number | undefined {
  const m = SLOT_NAME.exec(name);
  if (!m) return undefined;
  if (m[1] === '') return 0;
  const slot = Number(m[1]);
  // `fc0-` and `fc01-` are nobody's: slot 0 is `fc-`, and a slot is written without leading zeros.
  return String(slot) === m[1] && slot > 0 && slot < MAX_SLOTS ? slot : undefined;
}

/** Whether a name is one of a slot's (or of any slot's, without `slot`). */
export function isSlotName(name: string, slot?: number): boolean {
  const of = slotOfName(name);
  return of !== undefined && (slot === undefined || of === slot);
}

/**
 * A slot's /24 from the base one (`a.b.c.0/24` → `a.b.(c+s).0/24`): one /24 per slot, none overlapping. A base
 * too high for the slot is a RangeError (the caller turns it into a usage error naming `--subnet`).
 */
export function slotSubnet(baseCidr: string, slot: number): string {
  assertSlot(slot);
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/.exec(baseCidr);
  if (!m) throw new RangeError(`Expected a /24 such as \`10.77.0.0/24\`, got \`${baseCidr}\``);
  const third = Number(m[3]) + slot;
  if (third > 255) throw new RangeError(`Slot ${slot} has no /24 above \`${baseCidr}\` (the third octet would be ${third}); give a lower --subnet`);
  return `${m[1]}.${m[2]}.${third}.0/24`;
}

/** What one slot costs: a 2-core machine runs two clusters with their clients well; a slot's servers and clients take about 1 GB. */
export const SLOT_NEEDS = { cores: 1, memoryMb: 1024 } as const;

/** A machine's size, as the slot count is decided from it. */
export interface MachineSize {
  cores: number;
  /** Memory available now, MB. */
  memoryMb: number;
}

/**
 * How many slots the machine affords at most (pure): a try is mostly waiting (leases running out, pauses), so
 * two slots a core still leave the clients their time; memory at SLOT_NEEDS a slot. Never below 1.
 */
export function affordableSlots(m: MachineSize): number {
  return Math.max(1, Math.min(MAX_SLOTS, m.cores * 2, Math.floor(m.memoryMb / SLOT_NEEDS.memoryMb)));
}

/** The default `--parallel`: one slot a core (a try's waiting leaves room, its bursts of start-up do not), within what the machine affords. */
export function defaultSlots(m: MachineSize): number {
  return Math.max(1, Math.min(affordableSlots(m), Math.floor(m.cores / SLOT_NEEDS.cores)));
}

/**
 * The default `--parallel` of a batch whose runs fall in `groups` clusters (compare: one a backend) that each lane
 * keeps warm for all its runs: a lane a group, within what the machine affords, never fewer than defaultSlots. One
 * slot a core guards against bursts of start-up; a lane that keeps its group's cluster starts once, at the
 * beginning, and then only waits (leases, pauses). On this 2-core machine `npm run compare` (4 backends, 11 runs)
 * took 39.2 s on 2 lanes, each switching cluster, and 24-26 s on 4, the machine 54 % busy, every cell's verdict
 * the same.
 */
export function defaultGroupedSlots(m: MachineSize, groups: number): number {
  return Math.max(defaultSlots(m), Math.min(affordableSlots(m), groups));
}

/**
 * The default `--parallel` of a search whose lanes each keep one cluster warm for all their tries (hunt, shrink):
 * what the machine affords, two a core. A warm lane starts its cluster once; after that a try mostly waits
 * (leases running out, pauses, the recovery wait), so one slot a core left half the machine idle: on this 2-core
 * machine a hunt on four lanes ran the machine about 56 % busy (vmstat, 5 s samples). Measured side by side
 * (docs/hunt.md, `npm run bench:hunt` over the eight violation targets on seeds nobody tuned to): see there.
 */
export function defaultWarmSlots(m: MachineSize): number {
  return affordableSlots(m);
}
