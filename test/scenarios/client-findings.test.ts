import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFindings, countFindings, readClientFindings } from '../../src/scenarios/client-findings.js';
import { tempDir } from './fixtures.js';

describe('client findings (docs/client-protocol.md, Findings)', () => {
  it('counts `finding: KIND: details` lines by kind, after a timestamp or none, case-folded', () => {
    const log = [
      '22:10:01.123 finding: expired-lease grant: Lock returned with revision 43 but its key /fc/lock/694d is gone (its lease expired)',
      'finding: expired-lease grant: again: with a colon in the details',
      '22:10:02.000 FINDING: Session-Lost: the session ended while holding',
      '22:10:03.000 refinding: not-a-finding: the word must stand alone',
      'a finding: without a kind',
      '',
    ].join('\n');
    expect(countFindings(log)).toEqual({ 'expired-lease grant': 2, 'session-lost': 1 });
  });

  it('reads the client logs of a run directory only, and nothing when there are none', () => {
    const dir = tempDir('findings');
    expect(readClientFindings(dir)).toEqual({});
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs', 'client1-1.log'), 'finding: expired-lease grant: x\n');
    writeFileSync(join(dir, 'logs', 'client2-3.log'), 'finding: expired-lease grant: y\nfinding: stale token: z\n');
    writeFileSync(join(dir, 'logs', 'etcd1.log'), "finding: expired-lease grant: a server log is not a client's\n");
    expect(readClientFindings(dir)).toEqual({ 'expired-lease grant': 2, 'stale token': 1 });
  });

  it('adds findings over runs', () => {
    expect(addFindings([{ a: 1 }, {}, { a: 2, b: 1 }])).toEqual({ a: 3, b: 1 });
  });
});
