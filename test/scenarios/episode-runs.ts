/**
 * Lock-counter runs for the scenario tests, told as episodes and judged by
 * the product: each episode is a few ops of one or two holders (the test's
 * input, as a client would record them), and results.json is what the
 * product's own analysis (core/analyse/run-results.ts) makes of the whole
 * history. So the aggregation and the renderers are tested on verdicts the
 * checkers computed, never on counts written by hand.
 *
 *   clean         one holder: acquire, read, write (accepted), release
 *   lostUpdates   a holder paused past its lease writes after the next
 *                 holder's write over the same read: one acknowledged
 *                 increment lost, and with it a stale write, an
 *                 interleaving and a double hold
 *   fenced        the same, the late write refused by the fence: a double
 *                 hold and a refusal, the data intact
 *   refusals      a holder whose lease passed to a later token that wrote
 *                 first, its own write refused (no overlap: the later holder
 *                 had released): a refusal alone
 *   finalRead     false: no final read, so the lost-updates checker cannot
 *                 count and says unknown
 */
import type { Op } from '../../core/history/op.js';
import type { ResourceMode } from '../../core/vocabulary.js';
import { runResults } from '../../core/analyse/run-results.js';
import type { ResultsJson } from '../../core/run-files/results-json.js';
import { call, lockHistory, section, type Ev } from '../lock-checkers/lock-history.js';

export interface Episodes {
  clean?: number;
  lostUpdates?: number;
  fenced?: number;
  refusals?: number;
  finalRead?: boolean;
  resource?: ResourceMode;
}

/** Each episode takes a slot of this many ms, so episodes never overlap one another. */
const SLOT_MS = 10_000;

/** The client ops of the episodes, in time order from `startMs`, tokens from 1. */
export function episodeOps(e: Episodes, startMs = 1000): Op[] {
  const evs: Ev[][] = [];
  let counter = 0;
  let token = 0;
  let t = startMs;
  const slot = (): number => {
    const at = t;
    t += SLOT_MS;
    return at;
  };
  for (let i = 0; i < (e.clean ?? 0); i++) {
    const at = slot();
    const tok = ++token;
    evs.push(
      section(
        i % 2,
        tok,
        at,
        at + 100,
        call(i % 2, 'read', at + 10, at + 12, 'ok', { result: counter, token: tok }),
        call(i % 2, 'write', at + 20, at + 22, 'ok', { value: counter + 1, token: tok, outcome: 'accepted' }),
      ),
    );
    counter++;
  }
  const overlapping = (late: 'ok' | 'fail'): void => {
    const at = slot();
    const [older, newer] = [++token, ++token];
    // p0 reads, is paused past its lease; p1 is granted, reads the same value, writes; p0 wakes and writes late.
    evs.push(
      section(
        0,
        older,
        at,
        at + 3100,
        call(0, 'read', at + 10, at + 12, 'ok', { result: counter, token: older }),
        call(0, 'write', at + 3000, at + 3002, late, {
          value: counter + 1,
          token: older,
          outcome: late === 'ok' ? 'accepted' : 'rejected',
          ...(late === 'fail' ? { error: 'fenced' } : {}),
        }),
      ),
    );
    evs.push(
      section(
        1,
        newer,
        at + 1500,
        at + 1700,
        call(1, 'read', at + 1510, at + 1512, 'ok', { result: counter, token: newer }),
        call(1, 'write', at + 1520, at + 1522, 'ok', { value: counter + 1, token: newer, outcome: 'accepted' }),
      ),
    );
    counter++;
  };
  for (let i = 0; i < (e.lostUpdates ?? 0); i++) overlapping('ok');
  for (let i = 0; i < (e.fenced ?? 0); i++) overlapping('fail');
  for (let i = 0; i < (e.refusals ?? 0); i++) {
    const at = slot();
    const tok = ++token;
    // A section whose write the fence refuses (a later token wrote in another slot's terms): no second holder at the time.
    evs.push(
      section(
        0,
        tok,
        at,
        at + 100,
        call(0, 'read', at + 10, at + 12, 'ok', { result: counter, token: tok }),
        call(0, 'write', at + 20, at + 22, 'fail', { value: counter + 1, token: tok, outcome: 'rejected', error: 'fenced' }),
      ),
    );
  }
  if (e.finalRead !== false) evs.push(call(9, 'final-read', t, t + 1, 'ok', { result: counter }));
  return lockHistory(...evs);
}

/** results.json as the product writes it for these episodes' history with `extra` ops (nemesis events) beside them. */
export function episodeResults(e: Episodes, extra: readonly Op[] = [], plannedWindows = 1): ResultsJson {
  return runResults(episodeHistory(e, extra), { workload: 'lock-counter', resource: e.resource ?? 'fence', backend: 'redis' }, plannedWindows, 15_000);
}

/** The episodes' ops and the extra ops merged by time, renumbered. */
export function episodeHistory(e: Episodes, extra: readonly Op[] = []): Op[] {
  return [...episodeOps(e), ...extra].sort((a, b) => a.time - b.time).map((op, index) => ({ ...op, index }));
}
