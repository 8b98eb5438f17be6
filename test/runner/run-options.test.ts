/** Run options: what cannot run says why; the replay command round-trips every option that matters. */
import { EVICT_POLICIES } from '../../src/nemesis/eviction.js';
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerRunCommand, runOptionsOf, type CliFlags } from '../../src/cli/run-command.js';
import { REDIS_PERSISTENCE } from '../../src/cluster/backends/redis.js';
import { FAULT_KINDS } from '../../workloads/generator/nemesis-schedule.js';
import { DEFAULTS, replayArgs, replayCommand, validateRunOptions, type RunOptions } from '../../workloads/runner/run-options.js';
import { LOCK_BACKENDS, notApplicable, RESOURCE_MODES, WORKLOADS } from '../../workloads/vocabulary.js';
import { testSeed } from '../support/seed.js';

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

  it('aims evict at cache servers only, and refuses memcached without a --client', () => {
    expect(notApplicable('redis', 'none', ['evict'])).toBeUndefined();
    expect(notApplicable('redlock', 'cas-unique', ['evict'])).toBeUndefined();
    for (const b of ['etcd', 'zookeeper', 'pg-advisory', 'redis-sentinel'] as const) expect(notApplicable(b, 'none', ['evict'])).toMatch(/is not a cache/);
    expect(() => validateRunOptions({ ...base, backend: 'memcached', resource: 'none' })).toThrow(/memcached has no built-in lock client: give `--client tooz-memcached`/);
    expect(validateRunOptions({ ...base, backend: 'memcached', resource: 'none', client: 'tooz-memcached' }).backend).toBe('memcached');
  });

  it('checks numbers with the flag name', () => {
    expect(() => validateRunOptions({ ...base, clients: 0 })).toThrow('Expected `--clients` to be an integer from 1 to 50, got `0`');
    expect(() => validateRunOptions({ ...base, ttlMs: -1 })).toThrow('Expected `--ttl-ms` to be a positive number, got `-1`');
  });

  it('prints a replay command with every flag, defaults included, quoted for a shell', () => {
    const cmd = replayCommand({ ...base, nemesis: ['client-pause', 'kill'], seed: 42, callTimeoutMs: 300, recoverMs: 100, resultsDir: "/tmp/it's here" });
    expect(cmd).toBe(
      'fencecheck run --backend etcd --resource fence-claim --workload lock-counter --nemesis client-pause,kill --time-limit 30 --clients 5 --ttl-ms 2000 --hold-ms 200 --rate 2 ' +
        "--interval-ms 5000 --duration-ms 5000 --recover-ms 100 --call-timeout-ms 300 --nemesis-target random --redis-persistence none --results '/tmp/it'\\''s here' --seed 42",
    );
    expect(replayCommand({ ...base, checkHold: true })).toContain(' --nemesis none ');
    expect(replayCommand({ ...base, checkHold: true })).toContain(' --check-hold --seed 1');
  });
});

/** The words of a command line as a POSIX shell splits it (the subset shellQuote writes: bare words and '...' with '\\'' escapes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, word] of line.matchAll(/((?:[^\s'\\]+|'[^']*'|\\.)+)/g)) {
    words.push(word!.replace(/'([^']*)'|\\(.)|([^'\\]+)/g, (_, quoted: string | undefined, escaped: string | undefined, bare: string | undefined) => quoted ?? escaped ?? bare ?? ''));
  }
  return words;
}

/** Parse `fencecheck run ...` arguments with the real CLI, capturing the options instead of running. */
function parseRun(args: string[]): RunOptions {
  const program = new Command().exitOverride();
  registerRunCommand(program);
  let parsed: RunOptions | undefined;
  program.commands.find((c) => c.name() === 'run')!.exitOverride().action((flags: CliFlags) => {
    parsed = runOptionsOf(flags);
  });
  program.parse(args, { from: 'user' });
  return parsed!;
}

describe('the replay command', () => {
  const word = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_ '"$.\/-]{0,12}$/);
  const options: fc.Arbitrary<RunOptions> = fc.record({
    backend: fc.constantFrom(...LOCK_BACKENDS),
    resource: fc.constantFrom(...RESOURCE_MODES),
    workload: fc.constantFrom(...WORKLOADS),
    nemesis: fc.subarray([...FAULT_KINDS]),
    timeLimitS: fc.integer({ min: 1, max: 3600 }),
    clients: fc.integer({ min: 1, max: 50 }),
    ttlMs: fc.integer({ min: 1, max: 100_000 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 }),
    holdMs: fc.integer({ min: 0, max: 10_000 }),
    rate: fc.double({ min: 0.001, max: 100, noNaN: true }),
    intervalMs: fc.integer({ min: 0, max: 60_000 }),
    durationMs: fc.integer({ min: 1, max: 60_000 }),
    recoverMs: fc.integer({ min: 0, max: 60_000 }),
    callTimeoutMs: fc.integer({ min: 1, max: 60_000 }),
    nemesisTarget: word,
    redisPersistence: fc.constantFrom(...REDIS_PERSISTENCE),
    resultsDir: word,
    checkHold: fc.boolean(),
    // A foreign client's command line (quotes are checked when parsed, so none here).
    client: fc.option(fc.stringMatching(/^[A-Za-z0-9_.\/][A-Za-z0-9_ .\/-]{0,20}$/), { nil: undefined }),
    // namespaces is the default and is left out of a replay (replays from before providers read the same).
    provider: fc.option(fc.constant('containers' as const), { nil: undefined }),
    // The evict fault's policy: a run with evict replays it (default included), others never name it.
    evictPolicy: fc.constantFrom(...EVICT_POLICIES),
  }).map((o) => (o.nemesis.includes('evict') ? o : { ...o, evictPolicy: undefined }));

  it('gives back the same options when the CLI parses it, for random options and every flag', () => {
    const seed = testSeed('replay round trip', 'test/runner/run-options.test.ts');
    fc.assert(
      fc.property(options, (o) => {
        const line = replayCommand(o);
        expect(line.startsWith('fencecheck ')).toBe(true);
        const args = shellWords(line.slice('fencecheck '.length));
        expect(args).toEqual(replayArgs(o));
        expect(parseRun(args)).toEqual(o);
      }),
      { seed, numRuns: 300 },
    );
  });

  it('a run on containers replays on containers; one on namespaces says nothing about providers', () => {
    const onContainers = parseRun(['run', '--backend', 'redis', '--resource', 'none', '--provider', 'containers']);
    expect(onContainers.provider).toBe('containers');
    expect(replayCommand(onContainers)).toContain(' --provider containers ');
    expect(replayCommand(parseRun(['run', '--backend', 'redis', '--resource', 'none']))).not.toContain('--provider');
  });

  it('a run with --call-timeout-ms 300 --recover-ms 100 replays with both', () => {
    const given = parseRun(['run', '--backend', 'etcd', '--resource', 'fence-claim', '--nemesis', 'client-pause', '--call-timeout-ms', '300', '--recover-ms', '100']);
    const replay = replayCommand(given);
    expect(replay).toContain('--call-timeout-ms 300');
    expect(replay).toContain('--recover-ms 100');
    expect(parseRun(shellWords(replay.slice('fencecheck '.length)))).toEqual(given);
  });
});
