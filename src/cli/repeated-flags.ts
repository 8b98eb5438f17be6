/**
 * A single-valued flag given twice is refused (254), whichever command it is
 * for: commander takes the last value in silence, so `--model register
 * --model kv` would check as kv without a word. Flags that collect their
 * values (`up --backend redis --backend etcd`) say so with `repeatable`.
 */
import type { Command, Option } from 'commander';
import { UsageError } from '../../core/errors.js';

/** The value-taking flags of `command` that may be given more than once: they collect. */
const REPEATABLE: ReadonlySet<string> = new Set(['up --backend', 'up --client']);

/** Throws a UsageError naming the first single-valued flag of `command` that `args` gives twice. */
export function refuseRepeatedFlags(command: Command, args: readonly string[]): void {
  const byName = new Map<string, Option>();
  for (const o of command.options) {
    if (o.long !== undefined) byName.set(o.long, o);
    if (o.short !== undefined) byName.set(o.short, o);
  }
  const seen = new Set<Option>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const name = arg.startsWith('--') ? arg.split('=', 1)[0]! : arg;
    const o = byName.get(name);
    if (o === undefined) continue;
    const takesValue = o.required || o.optional;
    // Its value is the next word (unless given as --flag=value): never read as a flag of its own.
    if (takesValue && !arg.includes('=') && o.required) i++;
    if (!takesValue || o.variadic || REPEATABLE.has(`${command.name()} ${o.long ?? ''}`)) continue;
    if (seen.has(o)) {
      throw new UsageError(
        `Expected \`${o.long ?? o.short}\` once, got it twice or more`,
        `\`${command.name()}\` takes one value for ${o.long ?? o.short}; the last would silently win. Give it once.`,
      );
    }
    seen.add(o);
  }
}
