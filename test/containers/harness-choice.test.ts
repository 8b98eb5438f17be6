import { describe, expect, it } from 'vitest';
import { decideHarness, harnessRequest } from '../../runtime/cluster/containers/harness-choice.js';
import { UsageError } from '../../core/errors.js';
import { testSeed } from '../support/seed.js';

const RUN = ['run', '--backend', 'redis', '--provider', 'containers', '--seed', '3'];

describe('harnessRequest', () => {
  it('defaults to auto, and applies only to run, compare, scenario and client-check with --provider containers', () => {
    expect(harnessRequest(RUN, {})).toEqual({ choice: 'auto', args: RUN, containers: true, command: 'run', busyTimeoutMs: 0 });
    expect(harnessRequest(['run', '--backend', 'redis'], {}).containers).toBe(false);
    expect(harnessRequest(['up', '--provider', 'containers'], {}).containers).toBe(false);
    expect(harnessRequest(['scenario', 'run', 'S3', '--provider=containers'], {}).containers).toBe(true);
    // The last --provider wins, as in commander.
    expect(harnessRequest(['compare', '--provider', 'containers', '--provider', 'namespaces'], {}).containers).toBe(false);
    // Help, a dry run and run --plan start no cluster.
    expect(harnessRequest([...RUN, '--help'], {}).containers).toBe(false);
    expect(harnessRequest([...RUN, '--plan'], {}).containers).toBe(false);
    expect(harnessRequest(['scenario', 'run', 'S1', '--provider', 'containers', '--dry-run'], {}).containers).toBe(false);
  });

  it('takes --harness out of the arguments, in both spellings, and the flag beats the variable', () => {
    expect(harnessRequest([...RUN, '--harness', 'container'], { FENCECHECK_HARNESS: 'host' })).toMatchObject({ choice: 'container', args: RUN });
    expect(harnessRequest(['--harness=host', ...RUN], {})).toMatchObject({ choice: 'host', args: RUN });
    expect(harnessRequest(RUN, { FENCECHECK_HARNESS: 'container' }).choice).toBe('container');
    expect(harnessRequest(RUN, { FENCECHECK_HARNESS: '' }).choice).toBe('auto');
  });

  it('leaves what follows -- alone', () => {
    expect(harnessRequest(['run', '--', '--harness', 'x'], {}).args).toEqual(['run', '--', '--harness', 'x']);
  });

  it('reads --busy-timeout-ms (the outer process takes the cluster lock), 0 when absent or not a count', () => {
    expect(harnessRequest([...RUN, '--busy-timeout-ms', '5000'], {}).busyTimeoutMs).toBe(5000);
    expect(harnessRequest([...RUN, '--busy-timeout-ms=x'], {}).busyTimeoutMs).toBe(0);
  });

  it('refuses a bad value (254, naming the flag or the variable) and --harness container without the containers provider', () => {
    const refusal = (f: () => unknown): UsageError => {
      try {
        f();
      } catch (err) {
        if (err instanceof UsageError) return err;
      }
      throw new Error('expected a UsageError');
    };
    expect(refusal(() => harnessRequest([...RUN, '--harness', 'vm'], {})).message).toBe('Expected `--harness` to be one of auto, host, container, got `vm`');
    expect(refusal(() => harnessRequest([...RUN, '--harness'], {})).message).toContain('got ``');
    expect(refusal(() => harnessRequest(RUN, { FENCECHECK_HARNESS: 'yes' })).message).toContain('`FENCECHECK_HARNESS`');
    expect(refusal(() => harnessRequest(['up', '--provider', 'containers', '--harness', 'container'], {})).exitCode).toBe(254);
    expect(refusal(() => harnessRequest(['run', '--harness', 'container'], {})).message).toContain(
      'applies to run, compare, scenario, client-check with `--provider containers`, got `run`',
    );
  });

  it('gives back the same arguments wherever --harness stands (seeded)', () => {
    let s = testSeed('harnessRequest', 'test/containers/harness-choice.test.ts');
    const next = (n: number): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s % n;
    };
    const options = [
      ['--backend', 'etcd'],
      ['--provider', 'containers'],
      ['--seed', '7'],
      ['--nemesis', 'partition,kill'],
      ['--client', 'node x.js --harness-like'],
    ];
    for (let i = 0; i < 200; i++) {
      const args = ['compare', ...options.filter(() => next(3) > 0).flat()];
      // Between options (an option's value stays with it).
      const at = 1 + 2 * next((args.length - 1) / 2 + 1);
      const choice = (['auto', 'host', 'container'] as const)[next(3)]!;
      const flag = next(2) === 0 ? ['--harness', choice] : [`--harness=${choice}`];
      const withFlag = [...args.slice(0, at), ...flag, ...args.slice(at)];
      const containers = args.includes('containers');
      if (choice === 'container' && !containers) continue;
      expect(harnessRequest(withFlag, {})).toMatchObject({ choice, args, containers });
    }
  });
});

describe('decideHarness', () => {
  it('follows an explicit choice whatever a probe says', () => {
    expect(decideHarness('host', { reachable: false, detail: 'x' }).where).toBe('host');
    expect(decideHarness('container', { reachable: true, detail: 'x' }).where).toBe('container');
  });

  it('auto: a container only on evidence that this machine does not reach the network', () => {
    expect(decideHarness('auto', { reachable: true, detail: 'ECONNREFUSED from 10.77.0.2:9 in 1 ms' })).toEqual({
      where: 'host',
      why: "auto: this machine reaches the containers' network (ECONNREFUSED from 10.77.0.2:9 in 1 ms)",
    });
    expect(decideHarness('auto', { reachable: false, detail: 'no answer from 10.77.0.2:9 in 1500 ms' }).where).toBe('container');
    // Inconclusive (no daemon, no image, the /24 taken): here, where the run itself says what is wrong.
    expect(decideHarness('auto', { reachable: undefined, detail: 'not probed: no Docker daemon' })).toEqual({
      where: 'host',
      why: 'auto: not probed: no Docker daemon; running here',
    });
    expect(decideHarness('auto', undefined).where).toBe('host');
  });
});
