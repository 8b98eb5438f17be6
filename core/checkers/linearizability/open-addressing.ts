/**
 * The tables of ids this search keeps with open addressing over typed arrays
 * (interned states, tails, nogoods): a slot holds an id (-1: empty) and its
 * hash, and a table is at most half full. `doubled` rehashes one into twice
 * the size. Why typed arrays and not a Map: a probe allocates nothing, and the
 * garbage collector never walks the table (config-cache.ts).
 */
export interface SlotTable {
  slots: Int32Array<ArrayBuffer>;
  slotHash: Int32Array<ArrayBuffer>;
}

/** The first slot a hash probes in a table of `size` slots (a power of two). */
export function firstSlot(h: number, size: number): number {
  return (h ^ (h >>> 15)) & (size - 1);
}

/** An empty table of `size` slots (a power of two). */
export function emptySlots(size: number): SlotTable {
  return { slots: new Int32Array(size).fill(-1), slotHash: new Int32Array(size) };
}

/** The same ids in a table twice the size. */
export function doubled(table: SlotTable): SlotTable {
  const next = emptySlots(table.slots.length * 2);
  const mask = next.slots.length - 1;
  for (let i = 0; i < table.slots.length; i++) {
    const id = table.slots[i]!;
    if (id === -1) continue;
    const h = table.slotHash[i]!;
    let slot = firstSlot(h, next.slots.length);
    while (next.slots[slot] !== -1) slot = (slot + 1) & mask;
    next.slots[slot] = id;
    next.slotHash[slot] = h;
  }
  return next;
}
