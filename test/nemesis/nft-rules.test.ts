import { describe, expect, it } from 'vitest';
import { deleteTableScript, lossScript, partitionScript } from '../../runtime/nemesis/nft-rules.js';

describe('nft scripts', () => {
  it('partition: one input rule dropping every grudged address, replacing the table atomically', () => {
    expect(partitionScript(['10.77.0.22', '10.77.0.21'])).toBe(
      [
        'table ip fc-part',
        'delete table ip fc-part',
        'table ip fc-part {',
        '  chain input {',
        '    type filter hook input priority 0; policy accept;',
        '    ip saddr { 10.77.0.21, 10.77.0.22 } drop',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('loss: numgen per source address, zero percent left out', () => {
    const script = lossScript([
      { from: '10.77.0.23', percent: 30 },
      { from: '10.77.0.21', percent: 0 },
    ]);
    expect(script).toContain('type filter hook input priority -10; policy accept;');
    expect(script.split('\n').filter((l) => l.includes('numgen'))).toEqual(['    ip saddr 10.77.0.23 numgen random mod 100 < 30 drop']);
    expect(lossScript([{ from: '10.77.0.21', percent: 100 }])).toContain('    ip saddr 10.77.0.21 drop\n');
    expect(() => lossScript([{ from: '10.77.0.21', percent: 101 }])).toThrow(/0 to 100/);
    expect(() => lossScript([{ from: '10.77.0.21', percent: 2.5 }])).toThrow(/0 to 100/);
  });

  it('delete never fails on a missing table', () => {
    expect(deleteTableScript('fc-loss')).toBe('table ip fc-loss\ndelete table ip fc-loss\n');
  });
});
