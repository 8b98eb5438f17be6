/**
 * The final read, after healing and recovery: what the resource ended up
 * holding. Retried a few times, because right after a partition heals a
 * connection may still be re-establishing; each attempt is its own op.
 */
import type { LockSession } from './ports.js';
import type { Recorder } from './recorder.js';

const ATTEMPTS = 3;

export async function runFinalRead(recorder: Recorder, session: LockSession, process: number, callTimeoutMs: number): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const p = process + attempt;
    recorder.record(p, 'invoke', 'final-read', null);
    const a = await session.call({ op: 'final-read' }, 10 * callTimeoutMs);
    recorder.record(p, a.type, 'final-read', a.value ?? null, a.error ? { error: a.error } : {});
    if (a.type === 'ok') return;
  }
}
