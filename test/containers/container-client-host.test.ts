import { describe, expect, it } from 'vitest';
import { imageArgv } from '../../src/containers/container-client-host.js';
import { CLIENT_IMAGE_ROOT, IMAGE_NODE } from '../../src/containers/image-specs.js';

describe('imageArgv', () => {
  it("maps this Node and this checkout's files to where the client image has them", () => {
    const argv = imageArgv(['/usr/bin/node', '/work/co/dist/workloads/clients/client-main.js', '--x', '/elsewhere/f'], '/usr/bin/node', '/work/co');
    expect(argv).toEqual([IMAGE_NODE, `${CLIENT_IMAGE_ROOT}/dist/workloads/clients/client-main.js`, '--x', '/elsewhere/f']);
  });

  it('leaves a path that only starts like the checkout alone', () => {
    expect(imageArgv(['node', '/work/co-other/x.js'], '/usr/bin/node', '/work/co')).toEqual([IMAGE_NODE, '/work/co-other/x.js']);
  });

  it('refuses a program the image does not have (a foreign --client)', () => {
    expect(imageArgv(['/usr/bin/python3', 'clients/python/redis_py_client.py'], '/usr/bin/node', '/work/co')).toBeUndefined();
  });
});
