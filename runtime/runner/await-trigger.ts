/**
 * A triggered fault window's wait for its lock event (pure over Holders and
 * the run's clock): the event and the client it names, or why none came
 * within the trigger's `withinMs` (../generator/nemesis-schedule.ts, Trigger).
 *
 * A window aimed at one worker (`{ kind: 'client', worker }`) waits for that
 * worker's event; every other window takes the first event of its kind.
 */
import type { FaultTarget, Trigger } from '../../core/generator/fault-window.js';
import type { Holder, Holders } from './holders.js';
import type { LockSession } from './ports.js';

/** Whether and how often the run's clients renew their leases (a share of the lease; vocabulary.ts renewalShareOf), and whose they are. */
export interface Renewal {
  share: number | undefined;
  who: string;
}

/** What fired a window: the event, its client, and how long the window waited for it. */
export interface Fired {
  on: Trigger['on'];
  worker: number;
  process: number;
  session: LockSession;
  token: number | string | undefined;
  waitedMs: number;
}

export type TriggerOutcome = { fired: true; by: Fired } | { fired: false; why: string };

/** Wait (bounded by `withinMs` and by `capMs`, the main phase's time left) for `trigger`'s event. */
export async function awaitTrigger(holders: Holders, trigger: Trigger, target: FaultTarget, capMs: number, renewal?: Renewal): Promise<TriggerOutcome> {
  const events = holders.events;
  const begin = events.nowMs();
  const waitMs = Math.max(0, Math.min(trigger.withinMs, capMs));
  const worker = target.kind === 'client' ? target.worker : undefined;
  const mine = (w: number): boolean => worker === undefined || w === worker;
  const fired = (h: { worker: number; process: number; session: LockSession; token: number | string | undefined }): TriggerOutcome => ({
    fired: true,
    by: { on: trigger.on, worker: h.worker, process: h.process, session: h.session, token: h.token, waitedMs: events.nowMs() - begin },
  });
  const missed = (what: string): TriggerOutcome => ({ fired: false, why: `trigger ${trigger.on}: ${what} within ${Math.round(waitMs)} ms` });

  switch (trigger.on) {
    case 'held': {
      const now = holders.all().find((h) => h.session.alive && mine(h.worker));
      if (now) return fired(now);
      const e = await events.next((x) => x.on === 'grant' && mine(x.worker), waitMs);
      return e ? fired(e) : missed('nobody held the lock');
    }
    case 'lease-ending': {
      const h = await leaseEnding(holders, trigger.leadMs, begin + waitMs, mine);
      return h ? fired(h) : missed(`no holder's lease came within ${trigger.leadMs} ms of its end`);
    }
    case 'renew': {
      if (renewal?.share === undefined)
        return { fired: false, why: `trigger renew: ${renewal?.who ?? 'this'} client does not renew its lease (no renewal to aim at)` };
      const h = await renewalDue(holders, renewal.share, begin + waitMs, mine);
      return h ? fired(h) : missed("no holder's renewal came due");
    }
    default: {
      const on = trigger.on;
      const e = await events.next((x) => x.on === on && mine(x.worker), waitMs);
      return e ? fired(e) : missed(`no ${on} event`);
    }
  }
}

/**
 * A holder whose lease ends within `leadMs` from now, still holding: one now,
 * or the first to get there before `deadlineMs` (the wait wakes at each
 * grant, as a new holder may get there first).
 */
async function leaseEnding(holders: Holders, leadMs: number, deadlineMs: number, mine: (worker: number) => boolean): Promise<Holder | undefined> {
  const events = holders.events;
  for (;;) {
    const now = events.nowMs();
    const held = holders.all().filter((h) => h.session.alive && mine(h.worker) && h.grantedAtMs !== undefined && h.leaseMs !== undefined);
    const endOf = (h: Holder): number => h.grantedAtMs! + h.leaseMs!;
    const due = held.find((h) => endOf(h) - leadMs <= now && now < endOf(h));
    if (due) return due;
    if (now >= deadlineMs) return undefined;
    const next = Math.min(deadlineMs, ...held.map((h) => endOf(h) - leadMs).filter((t) => t > now));
    await events.next((e) => e.on === 'grant' && mine(e.worker), next - now);
  }
}

/**
 * A holder at one of its renewals (its grant + k × share × lease, k ≥ 1, by
 * the runner's clock), still holding: the first to get there before
 * `deadlineMs` (the wait wakes at each grant, as a new holder may renew first).
 */
async function renewalDue(holders: Holders, share: number, deadlineMs: number, mine: (worker: number) => boolean): Promise<Holder | undefined> {
  const events = holders.events;
  // Within a millisecond of the due time counts as at it (timers wake a little late).
  const SLACK_MS = 1;
  for (;;) {
    const now = events.nowMs();
    const held = holders.all().filter((h) => h.session.alive && mine(h.worker) && h.grantedAtMs !== undefined && h.leaseMs !== undefined && h.leaseMs > 0);
    const period = (h: Holder): number => h.leaseMs! * share;
    const since = (h: Holder): number => now - h.grantedAtMs!;
    const due = held.find((h) => since(h) >= period(h) - SLACK_MS && (since(h) + SLACK_MS) % period(h) <= 2 * SLACK_MS);
    if (due) return due;
    if (now >= deadlineMs) return undefined;
    const nextOf = (h: Holder): number => h.grantedAtMs! + Math.max(1, Math.ceil((since(h) - SLACK_MS) / period(h))) * period(h);
    const next = Math.min(deadlineMs, ...held.map(nextOf).filter((t) => t > now));
    await events.next((e) => e.on === 'grant' && mine(e.worker), Math.max(0, next - now));
  }
}
