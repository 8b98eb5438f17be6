/**
 * The machine a generated document was measured on, in one line (npm run libraries,
 * npm run queues): a reader weighs timing results by it.
 */
import { cpus, release, totalmem } from 'node:os';

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.versions.node}; shared with other jobs while it ran`;
}
