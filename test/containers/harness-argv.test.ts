import { describe, expect, it } from 'vitest';
import {
  CLOCK_VOLUME_DIR,
  clockVolumeName,
  harnessContainerArgv,
  harnessContainerName,
  passedEnvNames,
  sameDirMounts,
} from '../../runtime/cluster/containers/harness-argv.js';
import { clockFileIn, clockVolumeMounts, harnessSelf } from '../../runtime/cluster/containers/harness-self.js';
import { CLIENT_IMAGE_ROOT, IMAGE_NODE } from '../../runtime/cluster/containers/image-specs.js';

const images = { servers: 'fencecheck/servers:aaa', client: 'fencecheck/client:bbb' };

describe('harnessContainerArgv', () => {
  const argv = harnessContainerArgv({
    harnessId: 'h1',
    images,
    cwd: '/work/co',
    tmp: '/tmp',
    args: ['run', '--provider', 'containers'],
    env: { FENCECHECK_SUBNET: '10.78.0.0/24', HOME: '/root', SECRET: 'x' },
  });
  const pairs = (flag: string): string[] => argv.flatMap((a, i) => (a === flag ? [argv[i + 1]!] : []));

  it('runs the same command line with the client image, stdin attached, an init, removed at the end', () => {
    expect(argv.slice(0, 6)).toEqual(['run', '-i', '--rm', '--init', '--name', 'fc-harness-h1']);
    expect(argv.slice(argv.indexOf(images.client))).toEqual([
      images.client,
      IMAGE_NODE,
      `${CLIENT_IMAGE_ROOT}/dist/src/cli/main.js`,
      'run',
      '--provider',
      'containers',
    ]);
  });

  it('mounts the daemon socket, the working and temp dirs at their own paths and the clock volume; works in the same dir', () => {
    expect(pairs('-v')).toEqual(['/var/run/docker.sock:/var/run/docker.sock', '/tmp:/tmp', '/work/co:/work/co', `fc-clock-h1:${CLOCK_VOLUME_DIR}`]);
    expect(pairs('-w')).toEqual(['/work/co']);
  });

  it('labels it for reclaim (project, its own run id, role harness)', () => {
    expect(pairs('--label')).toEqual(['org.fencecheck.project=fencecheck', 'org.fencecheck.run=h1', 'org.fencecheck.role=harness']);
  });

  it('tells the inner command who it is, and passes fencecheck variables by name only', () => {
    expect(pairs('-e')).toEqual([
      'FENCECHECK_HARNESS_CONTAINER=fc-harness-h1',
      'FENCECHECK_CLOCK_VOLUME=fc-clock-h1',
      'FENCECHECK_HARNESS_STDIN=1',
      'FENCECHECK_HARNESS_IMAGES=fencecheck/servers:aaa fencecheck/client:bbb',
      'TMPDIR=/tmp',
      'FENCECHECK_SUBNET',
    ]);
  });
});

describe('passedEnvNames', () => {
  it("passes FENCECHECK_* and TESTCONTAINERS_* (never the harness's own ones or the state file), CI, colours, and a tcp DOCKER_HOST only", () => {
    expect(
      passedEnvNames({
        FENCECHECK_STATE_FILE: '/tmp/s.json',
        FENCECHECK_SUBNET: 'a',
        FENCECHECK_HARNESS: 'auto',
        FENCECHECK_HARNESS_CONTAINER: 'x',
        TESTCONTAINERS_RYUK_DISABLED: 'true',
        CI: '1',
        PATH: '/bin',
        DOCKER_HOST: 'unix:///x.sock',
      }),
    ).toEqual(['CI', 'FENCECHECK_SUBNET', 'TESTCONTAINERS_RYUK_DISABLED']);
    expect(passedEnvNames({ DOCKER_HOST: 'tcp://docker:2375' })).toEqual(['DOCKER_HOST']);
  });
});

describe('sameDirMounts', () => {
  it('mounts a folder once, and none inside another', () => {
    expect(sameDirMounts(['/tmp', '/tmp/x/results'])).toEqual(['/tmp']);
    expect(sameDirMounts(['/work/co/', '/work/co'])).toEqual(['/work/co']);
    expect(sameDirMounts(['/work/co', '/work/co-other'])).toEqual(['/work/co', '/work/co-other']);
    expect(sameDirMounts(['relative', '/tmp'])).toEqual(['/tmp']);
  });
});

describe('harnessSelf', () => {
  it('is set only by the outer process, with the clock volume and the images it named', () => {
    expect(harnessSelf({})).toBeUndefined();
    const self = harnessSelf({
      FENCECHECK_HARNESS_CONTAINER: harnessContainerName('h1'),
      FENCECHECK_CLOCK_VOLUME: clockVolumeName('h1'),
      FENCECHECK_HARNESS_IMAGES: 'fencecheck/servers:aaa fencecheck/client:bbb',
    });
    expect(self).toEqual({ container: 'fc-harness-h1', clockVolume: 'fc-clock-h1', images });
    expect(clockFileIn('/r', self)('redis1')).toBe(`${CLOCK_VOLUME_DIR}/redis1.offset`);
    expect(clockVolumeMounts(self)).toEqual([{ source: 'fc-clock-h1', target: CLOCK_VOLUME_DIR, mode: 'rw' }]);
    expect(clockFileIn('/r', undefined)('redis1')).toBe('/r/clock/redis1.offset');
    expect(clockVolumeMounts(undefined)).toEqual([]);
  });
});
