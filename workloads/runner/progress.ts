/**
 * One progress line while a run goes on: time, ops so far, who holds the
 * lock, and the fault in force.
 */
import type { Holders } from './holders.js';
import type { Recorder } from './recorder.js';

export function progressLine(recorder: Recorder, startNs: number, timeLimitS: number, holders: Holders): string {
  const t = (recorder.now() - startNs) / 1e9;
  const ops = recorder.ops;
  let acquired = 0;
  let faults = 0;
  for (const op of ops) {
    if (op.f === 'acquire' && op.type === 'ok') acquired++;
    if (op.process === 'nemesis' && op.type === 'info') faults++;
  }
  const held = holders.all().map((h) => `p${h.process}`).join(',') || 'nobody';
  return `[${t.toFixed(0).padStart(3)}s/${timeLimitS}s] ${ops.length} ops, ${acquired} acquisitions, held by ${held}, ${faults} nemesis events`;
}
