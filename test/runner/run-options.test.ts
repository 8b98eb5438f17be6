/** Run options: what cannot run says why; the replay command round-trips every option that matters. */
import { describe, expect, it } from 'vitest';
import { DEFAULTS, replayCommand, validateRunOptions, type RunOptions } from '../../workloads/runner/run-options.js';
import { notApplicable } from '../../workloads/vocabulary.js';

const base: RunOptions = { ...DEFAULTS, backend: 'etcd', resource: 'fence-claim', workload: 'lock-counter' };

describe('run options', () => {
  it('refuses fencing modes for Redlock, which has no monotonic token', () => {
    expect(notApplicable('redlock', 'fence', [])).toMatch(/no monotonic fencing token/);
    expect(notApplicable('redlock-npm', 'fence-claim', [])).toMatch(/no monotonic fencing token/);
    expect(notApplicable('redlock', 'cas-unique', [])).toBeUndefined();
  });

  it('refuses clock faults on etcd and says why', () => {
    expect(notApplicable('etcd', 'none', ['clock'])).toMatch(/ignores LD_PRELOAD/);
    expect(() => validateRunOptions({ ...base, nemesis: ['clock'] })).toThrow(/Cannot run this combination/);
  });

  it('checks numbers with the flag name', () => {
    expect(() => validateRunOptions({ ...base, clients: 0 })).toThrow('Expected `--clients` to be an integer from 1 to 50, got `0`');
    expect(() => validateRunOptions({ ...base, ttlMs: -1 })).toThrow('Expected `--ttl-ms` to be a positive number, got `-1`');
  });

  it('prints a replay command with the seed and the nemesis settings', () => {
    const cmd = replayCommand({ ...base, nemesis: ['client-pause', 'kill'], seed: 42 });
    expect(cmd).toBe(
      'fencecheck run --backend etcd --resource fence-claim --workload lock-counter --nemesis client-pause,kill --time-limit 30 --clients 5 --ttl-ms 2000 --hold-ms 200 --rate 2 --interval-ms 5000 --duration-ms 5000 --nemesis-target random --seed 42',
    );
  });
});
