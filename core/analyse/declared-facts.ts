/**
 * Declared facts checked against the history (pure).
 *
 * A run directory's test.json says which workload ran, against which resource
 * mode, on which backend and with which lock client (and so which token
 * kind); those facts choose the checkers that judge history.jsonl
 * (run-results.ts). A run directory is input, though: copied from CI, shared,
 * edited. Change `workload` from lock-counter to fenced-write and the
 * history's integer writes would be judged as fenced-write's, and an unsafe
 * run would read "safe". So every fact that chooses checkers is held against
 * what the history itself records, and a run whose facts it contradicts gets
 * no verdict: `firstContradiction` names the fact, what test.json says, and
 * the op that cannot be under it.
 *
 * The rules are what each fact implies for the ops the harness records
 * (docs/lock-workloads.md), not guesses of what is likely:
 * - workload: the mutex workload reads and writes no resource (no read,
 *   write or final read; it marks in the cas-unique modes, as every section); fenced-write writes the plan's strings (`p<client>-<seq>`);
 *   lock-counter and jobs write integers (the counter, the job stream's
 *   position); a section of any of them touches the resource once it holds
 *   the lock. (A final read is not demanded: a run cut short has none.)
 * - resource: only the cas-unique modes mark; `version`, and only it,
 *   records a row version on its reads; nothing refuses an access under
 *   `none`; under `for-update` no read takes the row while another section's
 *   transaction holds it (rowLockOverlap).
 * - token kind (the backend's built-in client's, or the one a foreign client
 *   announced in `clientToken`): a monotonic token is a non-negative integer
 *   (a decimal string beyond 2^53); a built-in unique token is a string
 *   (Redlock's random value); a client that announced none returns none.
 *   A foreign client's unique tokens may be numbers: nothing tells those
 *   apart from an order the client does not promise, so none is demanded.
 * - backend: with no lock (`none`) no client takes or releases one; on any
 *   other backend the sections take the lock first.
 * - lock client: `clientToken` is recorded only for a run with `client`.
 *
 *   lock-counter and jobs run the same ops (the counter is the job stream's
 *   position): a jobs write records its `job` (Workload.writeField), and a
 *   lock-counter write none.
 *
 * What the rules cannot see: a history of the database's own modes
 * (version, for-update) in which no overlap or refusal happened, declared
 * `none` or a token mode; that only makes its verdict harsher (the
 * lock's hand-overs then decide, where the counter alone did).
 */
import type { History } from '../history/op.js';
import { numberField, quote, SECTION_ACCESSES, stepsOf, tokenOf, who, type DeclaredFacts, type FactContradiction, type Step } from './fact-steps.js';
import { tokenKindOf, WORKLOADS } from '../vocabulary.js';
import { workloadOf } from '../workloads/registry.js';

export type { DeclaredFacts, FactContradiction } from './fact-steps.js';

const CAS_MODES: ReadonlySet<string> = new Set(['cas-unique', 'cas-unique-nonatomic']);
const COUNTER_WORKLOADS: ReadonlySet<string> = new Set(['lock-counter', 'jobs']);
const DECIMAL = /^(0|[1-9]\d*)$/;
/** The fields a workload's writes record (Workload.writeField), by workload. */
const WRITE_FIELDS = WORKLOADS.flatMap((workload) => {
  const field = workloadOf(workload).writeField;
  return field === undefined ? [] : [{ workload, field }];
});

/** The first declared fact the history (or test.json itself) contradicts, or null when every one fits. */
export function firstContradiction(history: History, facts: DeclaredFacts): FactContradiction | null {
  const steps = stepsOf(history);
  return clientFact(facts) ?? lockFact(steps, facts) ?? workloadFact(steps, facts) ?? resourceFact(steps, facts) ?? tokenFact(steps, facts);
}

// `--backend none` runs with no lock at all: no section takes one; any other backend's sections do.
function lockFact(steps: Step[], facts: DeclaredFacts): FactContradiction | null {
  const declared = `backend ${facts.backend}`;
  if (facts.backend === 'none') {
    const lock = steps.find((s) => s.invoke.f === 'acquire' || s.invoke.f === 'release');
    return lock === undefined
      ? null
      : { fact: 'backend', declared, op: lock.invoke, found: who(lock), why: 'with no lock (--backend none) no client takes or releases one' };
  }
  const access = steps.find((s) => SECTION_ACCESSES.includes(s.invoke.f));
  if (access !== undefined && !steps.some((s) => s.invoke.f === 'acquire')) {
    return {
      fact: 'backend',
      declared,
      op: access.invoke,
      found: `${who(access)}, and no client ever asked for the lock`,
      why: `on ${facts.backend} every section takes the lock first (only --backend none runs without one)`,
    };
  }
  return null;
}

/** One line for an error: `workload fenced-write: p1's write of 1 (op #5): fenced-write writes the plan's strings`. */
export function describeContradiction(c: FactContradiction): string {
  const where = c.op === null ? '' : ` (op #${c.op.index})`;
  return `test.json says ${c.declared}, but ${c.found}${where}: ${c.why}`;
}

function clientFact(facts: DeclaredFacts): FactContradiction | null {
  if (facts.clientToken === undefined || facts.foreignClient) return null;
  return {
    fact: 'clientToken',
    declared: `clientToken ${facts.clientToken}`,
    op: null,
    found: 'no `client` ran',
    why: 'only a run with a foreign lock client (`client`) records the token kind it announced',
  };
}

function workloadFact(steps: Step[], facts: DeclaredFacts): FactContradiction | null {
  const declared = `workload ${facts.workload}`;
  for (const step of steps) {
    const f = step.invoke.f;
    if (facts.workload === 'mutex') {
      // (In the cas-unique modes every section marks the row with its token first, the mutex workload's too.)
      if (f === 'read' || f === 'write' || f === 'final-read')
        return {
          fact: 'workload',
          declared,
          op: step.invoke,
          found: who(step),
          why: 'the mutex workload only takes and releases the lock; it never reads or writes the resource',
        };
      continue;
    }
    if (f !== 'write') continue;
    const v = step.invoke.value;
    if (facts.workload === 'fenced-write' && typeof v !== 'string') {
      return {
        fact: 'workload',
        declared,
        op: step.invoke,
        found: `${who(step)} of ${quote(v)}`,
        why: "fenced-write writes the plan's strings (p<client>-<seq>), never a number",
      };
    }
    if (COUNTER_WORKLOADS.has(facts.workload) && !(typeof v === 'number' && Number.isSafeInteger(v))) {
      return {
        fact: 'workload',
        declared,
        op: step.invoke,
        found: `${who(step)} of ${quote(v)}`,
        why: `${facts.workload} writes the counter's next integer (what it read, plus one)`,
      };
    }
    const own = workloadOf(facts.workload).writeField;
    if (own !== undefined && step.invoke[own] !== v) {
      return {
        fact: 'workload',
        declared,
        op: step.invoke,
        found: `${who(step)} of ${quote(v)} with no \`${own}\` field`,
        why: `each ${facts.workload} write records its ${own} (\`${own}\` equal to its value)`,
      };
    }
    const other = WRITE_FIELDS.find((w) => w.field !== own && step.invoke[w.field] !== undefined);
    if (other !== undefined)
      return {
        fact: 'workload',
        declared,
        op: step.invoke,
        found: `${who(step)} recording \`${other.field}\``,
        why: `only ${other.workload} writes record a ${other.field}`,
      };
  }
  const granted = steps.find((s) => s.invoke.f === 'acquire' && s.done?.type === 'ok');
  if (facts.workload !== 'mutex' && granted !== undefined && !steps.some((s) => s.invoke.f === 'read' || s.invoke.f === 'write')) {
    return {
      fact: 'workload',
      declared,
      op: granted.done!,
      found: `${who(granted)} granted, and no section ever read or wrote the resource`,
      why: `a ${facts.workload} section touches the resource once it holds the lock (only mutex never does)`,
    };
  }
  return null;
}

function resourceFact(steps: Step[], facts: DeclaredFacts): FactContradiction | null {
  const declared = `resource ${facts.resource}`;
  const cas = CAS_MODES.has(facts.resource);
  for (const step of steps) {
    if (step.invoke.f === 'mark' && !cas)
      return { fact: 'resource', declared, op: step.invoke, found: who(step), why: "only the cas-unique modes mark the row with the holder's token" };
    if (SECTION_ACCESSES.includes(step.invoke.f) && facts.resource !== 'version' && numberField(step.done, 'version') !== undefined) {
      return {
        fact: 'resource',
        declared,
        op: step.done ?? step.invoke,
        found: `${who(step)} recorded row version ${quote(step.done?.['version'])}`,
        why: 'only the version mode reads and checks a row version',
      };
    }
    if (facts.resource === 'none' && SECTION_ACCESSES.includes(step.invoke.f) && step.done?.type === 'fail' && step.done['outcome'] === 'rejected') {
      return {
        fact: 'resource',
        declared,
        op: step.done,
        found: `${who(step)} refused by the resource`,
        why: 'under `none` the resource accepts every access: nothing can refuse one',
      };
    }
  }
  if (facts.resource === 'version') {
    const read = steps.find((s) => s.invoke.f === 'read' && s.done?.type === 'ok' && numberField(s.done, 'version') === undefined);
    if (read !== undefined)
      return {
        fact: 'resource',
        declared,
        op: read.done!,
        found: `${who(read)} recorded no row version`,
        why: "the version mode reads the row's version with its data, to compare at the write",
      };
  }
  if (facts.resource === 'for-update') {
    const overlap = rowLockOverlap(steps);
    if (overlap !== null)
      return {
        fact: 'resource',
        declared,
        op: overlap.read.done!,
        found: `${who(overlap.read)} read the row while p${overlap.holder.process}'s transaction held it (op #${overlap.holder.invoke.index})`,
        why: 'under for-update a read takes the row lock, which its holder keeps until its write commits',
      };
  }
  if (cas && facts.workload !== 'mutex') {
    const write = steps.find((s) => s.invoke.f === 'write' && s.done?.type === 'ok');
    if (write !== undefined && !steps.some((s) => s.invoke.f === 'mark'))
      return {
        fact: 'resource',
        declared,
        op: write.invoke,
        found: `${who(write)} accepted, and no section ever marked the row`,
        why: `${facts.resource} marks the row with the holder's token before it writes`,
      };
  }
  return null;
}

/**
 * A read that took the row while another section's transaction held it, or
 * null. Under for-update a section's read (SELECT ... FOR UPDATE) holds the
 * row lock from its completion until its write commits; a write accepted
 * proves that transaction lasted (its first statement checks it is still the
 * one the read opened). So an ok read of another process that completes after
 * that read and before that write began held the same row lock at the same
 * time, which PostgreSQL never allows.
 */
function rowLockOverlap(steps: Step[]): { holder: Step; read: Step } | null {
  const lastRead = new Map<number, Step>();
  const held: { read: Step; until: number }[] = [];
  for (const step of steps) {
    if (step.invoke.f === 'read' && step.done?.type === 'ok') lastRead.set(step.process, step);
    if (step.invoke.f === 'write' && step.done?.type === 'ok') {
      const read = lastRead.get(step.process);
      if (read !== undefined) held.push({ read, until: step.invoke.time });
    }
  }
  const reads = steps.filter((s) => s.invoke.f === 'read' && s.done?.type === 'ok');
  for (const h of held) {
    const from = h.read.done!.time;
    const inside = reads.find((r) => r.process !== h.read.process && r.done!.time > from && r.done!.time < h.until);
    if (inside !== undefined) return { holder: h.read, read: inside };
  }
  return null;
}

function tokenFact(steps: Step[], facts: DeclaredFacts): FactContradiction | null {
  const kind = facts.clientToken ?? tokenKindOf(facts.backend);
  const declared = facts.clientToken !== undefined ? `clientToken ${facts.clientToken}` : `backend ${facts.backend} (its built-in client's tokens are ${kind})`;
  const fact = facts.clientToken !== undefined ? 'clientToken' : 'backend';
  for (const step of steps) {
    if (step.invoke.f !== 'acquire' || step.done?.type !== 'ok') continue;
    const token = tokenOf(step);
    const found = `${who(step)} granted token ${quote(token)}`;
    if (kind === 'monotonic' && !(typeof token === 'number' ? Number.isSafeInteger(token) && token >= 0 : typeof token === 'string' && DECIMAL.test(token))) {
      return { fact, declared, op: step.done, found, why: 'a monotonic token is a non-negative integer (a decimal string beyond 2^53)' };
    }
    if (kind === 'none' && token !== undefined) return { fact, declared, op: step.done, found, why: 'a client that announced no token returns none' };
    if (kind === 'unique' && !facts.foreignClient && token !== undefined && typeof token !== 'string') {
      return { fact, declared, op: step.done, found, why: `${facts.backend}'s built-in client grants a random string, never a number` };
    }
  }
  return null;
}
