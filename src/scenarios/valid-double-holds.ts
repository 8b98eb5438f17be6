/**
 * Double holds within validity (pure): two clients holding the lock at once
 * while *both* were within the validity their grants promised (a Redlock
 * client is told `validity_ms`: the lease left after the time its acquire
 * took, less the clock drift it allows). A holder acting past its validity
 * is the failure every lease has (a pause, a late write: only a fence stops
 * it); two holders both inside their validity is the lock breaking its own
 * promise, which with Redlock's assumptions needs a server whose clock
 * jumped (Kleppmann's argument, scenario S3), or a server that forgot a key.
 *
 * A hold's valid window runs from its grant (the acquire's ok) to its
 * start plus validity, cut at the holder's next release or acquire. Grants
 * without `validity_ms` or `started` (locks that promise no validity) have
 * no window and count for nothing.
 */
import type { History, Process } from '../../core/history/op.js';

interface ValidWindow {
  process: Process;
  from: number;
  to: number;
}

/** The number of pairs of different processes whose valid windows overlap. */
export function validDoubleHolds(history: History): number {
  const windows = validWindows(history);
  let pairs = 0;
  for (let i = 0; i < windows.length; i++) {
    for (let j = i + 1; j < windows.length; j++) {
      const a = windows[i]!;
      const b = windows[j]!;
      if (a.process !== b.process && a.from < b.to && b.from < a.to) pairs++;
    }
  }
  return pairs;
}

function validWindows(history: History): ValidWindow[] {
  const done: ValidWindow[] = [];
  const open = new Map<Process, ValidWindow>();
  const close = (process: Process, at: number): void => {
    const w = open.get(process);
    if (!w) return;
    open.delete(process);
    w.to = Math.min(w.to, at);
    if (w.to > w.from) done.push(w);
  };
  for (const op of history) {
    if (op.process === 'nemesis') continue;
    if ((op.f === 'release' || op.f === 'acquire') && op.type === 'invoke') close(op.process, op.time);
    const validity = op['validity_ms'];
    const started = op['started'];
    if (op.f === 'acquire' && op.type === 'ok' && typeof validity === 'number' && typeof started === 'number' && validity > 0) {
      open.set(op.process, { process: op.process, from: op.time, to: started + validity * 1e6 });
    }
  }
  for (const w of open.values()) if (w.to > w.from) done.push(w);
  return done;
}
