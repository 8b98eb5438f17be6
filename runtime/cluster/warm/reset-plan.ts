/**
 * What a warm cluster's reset must undo, and what its clean check must see,
 * from an observation of the cluster (pure). The observation is taken after
 * the nemesis's own healing (healAll): whatever it shows now is what healAll
 * did not know about (a fault of a crashed run, a node killed and never
 * restarted, a clock file a finished process left shifted), so the reset acts
 * on what is there, not on what the last run remembers doing.
 */
import { LOSS_TABLE, PARTITION_TABLE } from '../../nemesis/nft-rules.js';

/** The state of a warm cluster outside the lock service's own data. */
export interface ClusterObservation {
  /** Every server node: whether its process runs, and whether it is stopped (SIGSTOP, /proc state T). */
  nodes: readonly { name: string; running: boolean; stopped: boolean }[];
  /** Every clock offset file of the cluster (servers' and clients'); undefined: unreadable or torn. */
  clocks: readonly { file: string; offsetMs: number | undefined }[];
  /** The fencecheck nft tables found in each host's namespace (undefined: could not be listed). */
  nftTables: readonly { namespace: string; tables: readonly string[] | undefined }[];
  /** Client processes still running, by name. */
  clientProcesses: readonly string[];
}

export type ResetStep =
  | { kind: 'end-clients'; names: string[] }
  | { kind: 'resume'; node: string }
  | { kind: 'restart'; node: string }
  | { kind: 'clock-zero'; file: string }
  | { kind: 'nft-delete'; namespace: string; table: string };

/** The tables fencecheck makes (anything else in a project namespace is not ours to remove). */
export const FENCECHECK_TABLES: readonly string[] = [PARTITION_TABLE, LOSS_TABLE];

/** The steps that bring the observed cluster back to its started state, clients first (a client may hold a lock). */
export function planReset(o: ClusterObservation): ResetStep[] {
  const steps: ResetStep[] = [];
  if (o.clientProcesses.length > 0) steps.push({ kind: 'end-clients', names: [...o.clientProcesses] });
  for (const t of o.nftTables)
    for (const table of t.tables ?? []) if (FENCECHECK_TABLES.includes(table)) steps.push({ kind: 'nft-delete', namespace: t.namespace, table });
  for (const n of o.nodes) {
    // A killed node is restarted (with its data, as the nemesis's restart does); a stopped one resumed.
    if (!n.running) steps.push({ kind: 'restart', node: n.name });
    else if (n.stopped) steps.push({ kind: 'resume', node: n.name });
  }
  for (const c of o.clocks) if (c.offsetMs !== 0) steps.push({ kind: 'clock-zero', file: c.file });
  return steps;
}

/** What the clean check finds wrong outside the lock service's data: each a line for a person. */
export function observationProblems(o: ClusterObservation): string[] {
  const problems: string[] = [];
  if (o.clientProcesses.length > 0) problems.push(`client processes still running: ${o.clientProcesses.join(', ')}`);
  for (const t of o.nftTables) {
    if (t.tables === undefined) problems.push(`${t.namespace}: nft tables could not be listed`);
    else for (const table of t.tables) if (FENCECHECK_TABLES.includes(table)) problems.push(`${t.namespace}: nft table ${table} left`);
  }
  for (const n of o.nodes) {
    if (!n.running) problems.push(`${n.name}: not running`);
    else if (n.stopped) problems.push(`${n.name}: stopped (paused)`);
  }
  for (const c of o.clocks) if (c.offsetMs !== 0) problems.push(`${c.file}: clock offset ${c.offsetMs === undefined ? 'unreadable' : `${c.offsetMs} ms`}`);
  return problems;
}

/** `nft list tables` output to table names (pure): lines `table ip fc-part`. */
export function parseNftTables(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((w) => w[0] === 'table' && w.length >= 3)
    .map((w) => w[w.length - 1]!);
}
