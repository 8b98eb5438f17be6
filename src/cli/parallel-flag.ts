/**
 * `--parallel N`: how many clusters (slots, core/cluster/slots.ts) a command
 * runs at once. The range (1..MAX_SLOTS, non-numeric refused) is the flag
 * parser's; here, what this machine affords: more than that is refused with
 * a hint (254) rather than run starved, and the default is what it affords
 * by its cores, said on the command's first line.
 */
import { availableParallelism, freemem } from 'node:os';
import { UsageError } from '../../core/errors.js';
import { providerFacts, type ProviderName } from '../../core/plan/providers.js';
import { affordableSlots, defaultGroupedSlots, defaultSlots, defaultWarmSlots, SLOT_NEEDS, type MachineSize } from '../../core/cluster/slots.js';

export function thisMachine(): MachineSize {
  return { cores: availableParallelism(), memoryMb: Math.floor(freemem() / 2 ** 20) };
}

export interface Parallel {
  lanes: number;
  /** For the command's first line: `parallel 2 (default: 2 cores, 23 GB free)`. */
  said: string;
}

/**
 * The lanes a command runs on: `asked` when the machine affords it (254 with a hint when not), else the default.
 * A provider that runs one cluster at a time (the containers provider: PROVIDER_FACTS) has 1, and more is a usage error.
 * `lanesOf`: how the command's lanes use their clusters, for its default: a number, a batch whose lanes each keep one
 * group's cluster warm (compare's backends: a lane a group, within what the machine affords, slots.ts
 * defaultGroupedSlots); 'warm', a search whose lanes keep one cluster warm for every try (hunt, shrink: what the
 * machine affords, slots.ts defaultWarmSlots); absent, one a core.
 */
export function parallelLanes(asked: number | undefined, provider?: ProviderName, machine: MachineSize = thisMachine(), lanesOf?: number | 'warm'): Parallel {
  const one = providerFacts(provider).oneCluster;
  if (one) {
    if (asked !== undefined && asked > 1)
      throw new UsageError(
        `Expected \`--parallel 1\` with \`--provider ${provider}\`, got \`${asked}\``,
        `The ${provider} provider runs one cluster at a time (${one.short}); use the namespaces provider for several at once.`,
      );
    return { lanes: 1, said: `parallel 1 (the ${provider} provider runs one cluster at a time)` };
  }
  const affords = affordableSlots(machine);
  const size = `${machine.cores} core${machine.cores === 1 ? '' : 's'}, ${(machine.memoryMb / 1024).toFixed(1)} GB free`;
  if (asked === undefined) {
    const lanes = lanesOf === undefined ? defaultSlots(machine) : lanesOf === 'warm' ? defaultWarmSlots(machine) : defaultGroupedSlots(machine, lanesOf);
    const why =
      lanes <= defaultSlots(machine)
        ? 'the default'
        : lanesOf === 'warm'
          ? `each lane keeping its cluster warm for every try, ${affords} at most`
          : `a lane a backend, each keeping its cluster, ${affords} at most`;
    return { lanes, said: `parallel ${lanes} (${why} on this machine: ${size}; --parallel N for another)` };
  }
  if (asked > affords)
    throw new UsageError(
      `Expected \`--parallel\` to be at most ${affords} on this machine (${size}), got \`${asked}\``,
      `Each cluster needs at least half a core and about ${SLOT_NEEDS.memoryMb} MB; more at once would run them starved, and their timing faults would not mean what they say. Give --parallel ${affords} or fewer (leave it out for ${defaultSlots(machine)}).`,
    );
  return { lanes: asked, said: `parallel ${asked} (${size})` };
}
