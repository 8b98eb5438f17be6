/**
 * The lines a queue program prints are read strictly: the ready line, a producer's answers and a worker's
 * events in their documented shapes pass; every other line is a QueueLineError naming what was expected
 * (the runner records it as a protocol violation: the run is unknown at best, never guessed at).
 */
import { describe, expect, it } from 'vitest';
import { QueueLineError, readProducerAnswer, readReady, readWorkerEvent } from '../../core/queue/queue-events.js';

describe('queue protocol lines', () => {
  it('reads the documented shapes', () => {
    expect(readReady('{"ready":true,"protocol":1,"library":"bullmq 6.7.6","attempt":"attemptsStarted"}')).toEqual({
      library: 'bullmq 6.7.6',
      attempt: 'attemptsStarted',
    });
    expect(readReady('{"ready":true,"protocol":1,"library":"rq","attempt":null}').attempt).toBeNull();
    expect(readProducerAnswer('{"id":3,"type":"info","error":"timeout"}')).toEqual({ id: 3, type: 'info', error: 'timeout' });
    expect(readWorkerEvent('{"event":"take","job":7,"attempt":2}')).toEqual({ event: 'take', job: 7, attempt: 2 });
    expect(readWorkerEvent('{"event":"effect","phase":"rejected","job":7,"attempt":1}')).toEqual({ event: 'effect', phase: 'rejected', job: 7, attempt: 1 });
    expect(readWorkerEvent('{"event":"complete","phase":"fail","job":7,"attempt":1,"error":"missing-lock"}')).toMatchObject({ error: 'missing-lock' });
  });

  it.each([
    ['ready', 'not json', readReady, /not JSON/],
    ['ready', '{"ready":true,"protocol":2,"library":"x","attempt":null}', readReady, /ready line/],
    ['ready', '{"ready":true,"protocol":1,"attempt":null}', readReady, /library/],
    ['answer', '{"type":"ok"}', readProducerAnswer, /"id"/],
    ['answer', '{"id":1,"type":"maybe"}', readProducerAnswer, /ok, fail or info/],
    ['event', '{"event":"take","job":"7","attempt":1}', readWorkerEvent, /"job"/],
    ['event', '{"event":"take","job":7,"attempt":-1}', readWorkerEvent, /"attempt"/],
    ['event', '{"event":"effect","phase":"done","job":7,"attempt":1}', readWorkerEvent, /phase/],
    ['event', '{"event":"complete","phase":"rejected","job":7,"attempt":1}', readWorkerEvent, /phase/],
    ['event', '{"event":"dequeue","job":7,"attempt":1}', readWorkerEvent, /unknown event/],
    ['event', '[1]', readWorkerEvent, /object/],
    ['event', '{"event":"take","job":7,"attempt":1,"job":8}', readWorkerEvent, /not JSON/],
  ] as [string, string, (l: string) => unknown, RegExp][])('refuses a bad %s line: %s', (_kind, line, read, message) => {
    expect(() => read(line)).toThrow(QueueLineError);
    expect(() => read(line)).toThrow(message);
  });
});
