/**
 * nftables scripts for network faults (pure). Each fault kind has its own
 * table in the receiving host's namespace, so partitions and loss compose and
 * each heals on its own by deleting its table. Tables hook `input`: a host
 * drops what arrives from the hosts it holds a grudge against.
 *
 * A script first ensures the table exists and deletes it, then declares it
 * anew: one atomic nft transaction that replaces whatever was there.
 */

export const PARTITION_TABLE = 'fc-part';
export const LOSS_TABLE = 'fc-loss';
export const TABLE_FAMILY = 'ip';

function replaceTable(name: string, priority: number, rules: readonly string[]): string {
  return [
    `table ${TABLE_FAMILY} ${name}`,
    `delete table ${TABLE_FAMILY} ${name}`,
    `table ${TABLE_FAMILY} ${name} {`,
    '  chain input {',
    `    type filter hook input priority ${priority}; policy accept;`,
    ...rules.map((r) => `    ${r}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Remove a table if it exists (declaring it first makes the delete never fail). */
export function deleteTableScript(name: string): string {
  return `table ${TABLE_FAMILY} ${name}\ndelete table ${TABLE_FAMILY} ${name}\n`;
}

/** Drop everything that arrives from these addresses. */
export function partitionScript(dropFrom: readonly string[]): string {
  const ips = [...dropFrom].sort();
  return replaceTable(PARTITION_TABLE, 0, ips.length === 0 ? [] : [`ip saddr { ${ips.join(', ')} } drop`]);
}

/**
 * Drop a random `percent` of the packets from each address (nftables numgen:
 * the kernel here has no netem). Runs before the partition table.
 */
export function lossScript(rules: readonly { from: string; percent: number }[]): string {
  for (const r of rules) {
    if (!Number.isInteger(r.percent) || r.percent < 0 || r.percent > 100) {
      throw new RangeError(`Expected a loss percentage from 0 to 100, got \`${r.percent}\``);
    }
  }
  const lines = [...rules]
    .sort((a, b) => a.from.localeCompare(b.from))
    .filter((r) => r.percent > 0)
    // numgen values run 0..99, so `< 100` is out of range for nft: 100 % is a plain drop.
    .map((r) => (r.percent === 100 ? `ip saddr ${r.from} drop` : `ip saddr ${r.from} numgen random mod 100 < ${r.percent} drop`));
  return replaceTable(LOSS_TABLE, -10, lines);
}
