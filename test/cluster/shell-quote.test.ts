import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../core/shell-quote.js';

describe('shellQuote', () => {
  it('quotes only what a shell would split or expand', () => {
    expect(shellQuote(['ip', 'netns', 'exec', 'fc-zk1', '-Dfmt=yyyy-MM-dd HH:mm', '--logfile', '', "it's"])).toBe(
      `ip netns exec fc-zk1 '-Dfmt=yyyy-MM-dd HH:mm' --logfile '' 'it'\\''s'`,
    );
  });
});
