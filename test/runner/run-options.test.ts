/** Run options: what cannot run says why; the replay command round-trips every option that matters. */
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerRunCommand } from '../../src/cli/run-command.js';
import { assertOptionsApply, DEFAULTS, replayArgs, replayCommand, runOptionNotes, validateRunOptions, type RunOptions } from '../../core/plan/run-options.js';
import { progressClock } from '../../runtime/runner/progress.js';
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { TRIGGER_EVENTS } from '../../core/generator/fault-window.js';
import { notApplicable, SCHEDULED_FAULT_KINDS } from '../../core/vocabulary.js';
import { runOptionsArbitrary } from '../support/arbitrary-run-options.js';
import { parseRun, shellWords } from '../support/parse-run.js';
import { testSeed } from '../support/seed.js';
import { UsageError } from '../../core/errors.js';

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

  it('without a lock, refuses the token modes, the mutex and fenced-write workloads (254), and a foreign client', () => {
    const none: RunOptions = { ...base, backend: 'none', resource: 'version' };
    expect(validateRunOptions(none)).toBe(none);
    expect(validateRunOptions({ ...none, resource: 'for-update' }).resource).toBe('for-update');
    for (const resource of ['fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic'] as const) {
      expect(notApplicable('none', resource, [])).toMatch(/without a lock \(--backend none\) there is no token/);
      const err = (() => {
        try {
          validateRunOptions({ ...none, resource });
        } catch (e) {
          return e as UsageError;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(UsageError);
      expect(err!.exitCode).toBe(254);
      expect(err!.hint).toMatch(/--resource version or for-update/);
    }
    expect(() => validateRunOptions({ ...none, workload: 'mutex' })).toThrow(/the mutex workload judges the lock itself/);
    expect(() => validateRunOptions({ ...none, workload: 'fenced-write' })).toThrow(/judges writes against the lock's hand-overs/);
    expect(() => validateRunOptions({ ...none, client: 'python3 x.py' })).toThrow(/no lock service for it to use/);
    // With a lock, the database's own modes run with any backend.
    expect(notApplicable('redlock', 'version', [])).toBeUndefined();
    expect(notApplicable('etcd', 'for-update', [])).toBeUndefined();
  });

  it('checks --idle-tx-timeout-ms, and replays it', () => {
    expect(() => validateRunOptions({ ...base, idleTxTimeoutMs: -1 })).toThrow(
      'Expected `--idle-tx-timeout-ms` to be an integer from 0 to 86400000 (ms), got `-1`',
    );
    expect(replayArgs({ ...base, resource: 'for-update', idleTxTimeoutMs: 1500 }).join(' ')).toContain('--idle-tx-timeout-ms 1500');
  });

  it('aims evict at cache servers only, and refuses memcached without a --client', () => {
    expect(notApplicable('redis', 'none', ['evict'])).toBeUndefined();
    expect(notApplicable('redlock', 'cas-unique', ['evict'])).toBeUndefined();
    for (const b of ['etcd', 'zookeeper', 'pg-advisory', 'redis-sentinel'] as const) expect(notApplicable(b, 'none', ['evict'])).toMatch(/is not a cache/);
    expect(() => validateRunOptions({ ...base, backend: 'memcached', resource: 'none' })).toThrow(
      /memcached has no built-in lock client: give `--client tooz-memcached`/,
    );
    expect(validateRunOptions({ ...base, backend: 'memcached', resource: 'none', client: 'tooz-memcached' }).backend).toBe('memcached');
  });

  it('aims session-end at session locks only (PostgreSQL advisory locks, pooled or not), saying why elsewhere', () => {
    for (const b of ['pg-advisory', 'pg-advisory-pooled'] as const) expect(notApplicable(b, 'fence-claim', ['session-end'])).toBeUndefined();
    for (const b of ['redis', 'redlock', 'etcd', 'zookeeper', 'redis-sentinel', 'memcached', 'none'] as const) {
      expect(notApplicable(b, 'none', ['client-pause', 'session-end'])).toMatch(
        /session-end fault ends the server session a lock lives in; .* not a session \(use it on pg-advisory, pg-advisory-pooled\)/,
      );
    }
    expect(validateRunOptions({ ...base, backend: 'pg-advisory', resource: 'none', nemesis: ['session-end'] }).nemesis).toEqual(['session-end']);
    expect(() => validateRunOptions({ ...base, backend: 'etcd', resource: 'none', nemesis: ['session-end'] })).toThrow(/session-end/);
  });

  it('puts memcached under evict with its one policy (LRU over every item), and refuses volatile-lru there with a hint', () => {
    const mc = { ...base, backend: 'memcached' as const, resource: 'none' as const, client: 'tooz-memcached', nemesis: ['evict' as const] };
    expect(notApplicable('memcached', 'none', ['evict'])).toBeUndefined();
    expect(validateRunOptions(mc).nemesis).toEqual(['evict']);
    expect(validateRunOptions({ ...mc, evictPolicy: 'allkeys-lru' }).evictPolicy).toBe('allkeys-lru');
    const err = (() => {
      try {
        validateRunOptions({ ...mc, evictPolicy: 'volatile-lru' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toMatch(/memcached has no volatile-lru eviction \(it evicts by allkeys-lru\)/);
    expect((err as UsageError).hint).toMatch(/--evict-policy allkeys-lru/);
    const scripted: FaultWindow = { at: 0, until: 1000, fault: 'evict', target: { kind: 'node', node: 'memcached1' }, policy: 'volatile-lru' };
    expect(() => validateRunOptions({ ...mc, script: [scripted] })).toThrow(/no volatile-lru eviction/);
    expect(validateRunOptions({ ...base, backend: 'redis', resource: 'none', nemesis: ['evict'], evictPolicy: 'volatile-lru' }).evictPolicy).toBe(
      'volatile-lru',
    );
  });

  it('checks numbers with the flag name', () => {
    expect(() => validateRunOptions({ ...base, clients: 0 })).toThrow('Expected `--clients` to be an integer from 1 to 50, got `0`');
    expect(() => validateRunOptions({ ...base, ttlMs: -1 })).toThrow('Expected `--ttl-ms` to be an integer from 1 to 3600000 (ms), got `-1`');
  });

  it('prints a replay command with every flag, defaults included, quoted for a shell', () => {
    const cmd = replayCommand({ ...base, nemesis: ['client-pause', 'kill'], seed: 42, callTimeoutMs: 300, recoverMs: 100, resultsDir: "/tmp/it's here" });
    expect(cmd).toBe(
      'fencecheck run --backend etcd --resource fence-claim --workload lock-counter --nemesis client-pause,kill --time-limit 30 --clients 5 --ttl-ms 2000 --hold-ms 200 --rate 2 ' +
        "--interval-ms 5000 --duration-ms 5000 --recover-ms 100 --call-timeout-ms 300 --idle-tx-timeout-ms 0 --nemesis-target random --redis-persistence none --results '/tmp/it'\\''s here' --seed 42",
    );
    expect(replayCommand({ ...base, checkHold: true })).toContain(' --nemesis none ');
    expect(replayCommand({ ...base, checkHold: true })).toContain(' --check-hold --seed 1');
  });
});

describe('the replay command', () => {
  it('gives back the same options when the CLI parses it, for random options and every flag', () => {
    const seed = testSeed('replay round trip', 'test/runner/run-options.test.ts');
    fc.assert(
      fc.property(runOptionsArbitrary(), (o) => {
        const line = replayCommand(o);
        expect(line.startsWith('fencecheck ')).toBe(true);
        const args = shellWords(line.slice('fencecheck '.length));
        expect(args).toEqual(replayArgs(o));
        expect(parseRun(args)).toEqual(o);
      }),
      { seed, numRuns: 300 },
    );
  });

  it('a scripted timeline with triggers replays as --script, and a bad window is refused with its field', () => {
    const script: FaultWindow[] = [
      { at: 1000, until: 5000, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 3000 } },
    ];
    const o = { ...base, nemesis: ['client-pause' as const], script, proxies: 'lock' as const };
    expect(replayCommand(o)).toContain(
      `--proxies lock --script '[{"at":1000,"until":5000,"fault":"client-pause","target":{"kind":"holder"},"trigger":{"on":"holder-read","withinMs":3000}}]' --seed 1`,
    );
    expect(parseRun(replayArgs(o))).toEqual(o);
    const bad = [
      ...replayArgs(o).slice(0, -4),
      '--script',
      '[{"at":0,"until":1,"fault":"client-pause","target":{"kind":"holder"},"trigger":{"on":"soon","withinMs":1}}]',
    ];
    expect(() => parseRun(bad)).toThrow('Expected `--script` window 1 `trigger.on` to be one of ' + TRIGGER_EVENTS.join(', ') + ', got `"soon"`');
    expect(() => parseRun(['run', '--backend', 'redis', '--script', '[{"at":5,"until":1}]'])).toThrow('window 1 `until` to be at least `at` (5), got `1`');
  });

  it('a run on containers replays on containers; one on namespaces says nothing about providers', () => {
    const onContainers = parseRun(['run', '--backend', 'redis', '--resource', 'none', '--provider', 'containers']);
    expect(onContainers.provider).toBe('containers');
    expect(replayCommand(onContainers)).toContain(' --provider containers ');
    expect(replayCommand(parseRun(['run', '--backend', 'redis', '--resource', 'none']))).not.toContain('--provider');
  });

  it('a run with --call-timeout-ms 300 --recover-ms 100 replays with both', () => {
    const given = parseRun([
      'run',
      '--backend',
      'etcd',
      '--resource',
      'fence-claim',
      '--nemesis',
      'client-pause',
      '--call-timeout-ms',
      '300',
      '--recover-ms',
      '100',
    ]);
    const replay = replayCommand(given);
    expect(replay).toContain('--call-timeout-ms 300');
    expect(replay).toContain('--recover-ms 100');
    expect(parseRun(shellWords(replay.slice('fencecheck '.length)))).toEqual(given);
  });
});

describe('options a run would ignore or change in silence', () => {
  it('--wait-replicas / --min-replicas without redis-sentinel are refused with a hint; with it they pass', () => {
    for (const key of ['waitReplicas', 'minReplicas'] as const) {
      const flag = key === 'waitReplicas' ? '--wait-replicas' : '--min-replicas';
      expect(() => assertOptionsApply({ [key]: 1 }, ['redis'])).toThrow(`Expected \`${flag}\` only with the redis-sentinel backend, got it with redis`);
      expect(() => assertOptionsApply({ [key]: 2 }, ['redis', 'etcd'])).toThrow(/with redis, etcd/);
      expect(() => assertOptionsApply({ [key]: 2 }, ['redis', 'redis-sentinel'])).not.toThrow();
      expect(() => validateRunOptions({ ...base, backend: 'redis-sentinel', resource: 'none', [key]: 3 })).toThrow(
        `Expected \`${flag}\` to be an integer from 1 to 2, got \`3\``,
      );
    }
  });

  it('a client pause shorter than 2 x TTL is said (it is raised to 2 x TTL), other faults and long pauses are not', () => {
    expect(runOptionNotes({ durationMs: 100, ttlMs: 2000 }, ['client-pause'])).toEqual([
      expect.stringContaining('--duration-ms 100 is shorter than 2 x --ttl-ms: each client pause lasts 4000 ms'),
    ]);
    expect(runOptionNotes({ durationMs: 100, ttlMs: 2000 }, ['partition'])).toEqual([]);
    expect(runOptionNotes({ durationMs: 4000, ttlMs: 2000 }, ['client-pause'])).toEqual([]);
  });

  it('run --help lists exactly the faults run --nemesis takes; delay is refused with where it is driven', () => {
    const program = new Command().exitOverride();
    registerRunCommand(program);
    const help = program.commands
      .find((c) => c.name() === 'run')!
      .helpInformation()
      .replace(/\s+/g, ' ');
    expect(help).toContain(`faults, comma-separated: ${SCHEDULED_FAULT_KINDS.join(', ')}`);
    for (const f of SCHEDULED_FAULT_KINDS) expect(parseRun(['run', '--backend', 'redis', '--nemesis', f]).nemesis).toEqual([f]);
    expect(() => parseRun(['run', '--backend', 'redis', '--nemesis', 'delay'])).toThrow(
      expect.objectContaining({ exitCode: 254, hint: expect.stringContaining('fencecheck scenario run S2') }),
    );
    expect(() => validateRunOptions({ ...base, nemesis: ['delay'] })).toThrow('Expected `--nemesis` to list faults among');
  });

  it('the progress clock never reads past the time limit as within it', () => {
    expect(progressClock(5.4, 14)).toBe('  5s/14s');
    expect(progressClock(14, 14)).toBe(' 14s/14s');
    expect(progressClock(15.2, 14)).toBe(' 14s/14s +1s');
    expect(progressClock(-0.1, 14)).toBe('  0s/14s');
  });
});
