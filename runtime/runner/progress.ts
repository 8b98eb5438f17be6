/**
 * One progress line while a run goes on: time, ops so far, who holds the
 * lock, and the fault in force.
 */
import type { Holders } from './holders.js';
import type { Recorder } from './recorder.js';

/**
 * `  5s/14s` while the main phase runs; past its end (the last fault window and the workers end after it)
 * `14s/14s +1s`, never a time beyond the limit read as within it.
 */
export function progressClock(elapsedS: number, timeLimitS: number): string {
  const t = Math.floor(Math.max(0, elapsedS));
  return t <= timeLimitS ? `${String(t).padStart(3)}s/${timeLimitS}s` : `${String(timeLimitS).padStart(3)}s/${timeLimitS}s +${t - timeLimitS}s`;
}

export function progressLine(recorder: Recorder, startNs: number, timeLimitS: number, holders: Holders): string {
  const t = (recorder.now() - startNs) / 1e9;
  const ops = recorder.ops;
  let acquired = 0;
  let faults = 0;
  for (const op of ops) {
    if (op.f === 'acquire' && op.type === 'ok') acquired++;
    if (op.process === 'nemesis' && op.type === 'info') faults++;
  }
  const held =
    holders
      .all()
      .map((h) => `p${h.process}`)
      .join(',') || 'nobody';
  return `[${progressClock(t, timeLimitS)}] ${ops.length} ops, ${acquired} acquisitions, held by ${held}, ${faults} nemesis events`;
}
