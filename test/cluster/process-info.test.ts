import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { identify, isSameProcess, parseProcStat } from '../../runtime/hosts/process-info.js';

// Field 22 (start time) is the 20th after the comm's closing parenthesis.
const tail = (state: string, startTime: number): string =>
  `${state} 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 ${startTime} 1000 10 18446744073709551615`;

describe('parseProcStat', () => {
  it('reads pid, comm, state, parent, process group and start time', () => {
    expect(parseProcStat(`4242 (redis-server) ${tail('S', 987654)}`)).toEqual({
      pid: 4242,
      comm: 'redis-server',
      state: 'S',
      ppid: 1,
      pgrp: 4242,
      startTime: 987654,
    });
  });

  it('copes with spaces and parentheses inside the comm', () => {
    expect(parseProcStat(`7 (a) (b c) ${tail('T', 5)}`)).toMatchObject({ pid: 7, comm: 'a) (b c', state: 'T', startTime: 5 });
  });

  it('returns undefined for text that is not a stat line', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 no parens')).toBeUndefined();
  });
});

describe('isSameProcess', () => {
  it('matches a live process only with its own comm and start time', () => {
    const comm = readFileSync('/proc/self/comm', 'utf8').trim();
    const me = identify(process.pid, comm)!;
    expect(isSameProcess(me)).toBe(true);
    expect(isSameProcess({ ...me, startTime: me.startTime + 1 })).toBe(false);
    expect(isSameProcess({ ...me, comm: 'redis-server' })).toBe(false);
    expect(isSameProcess({ pid: 2 ** 22 + 1, comm, startTime: 0 })).toBe(false);
  });
});
