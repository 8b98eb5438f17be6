import { describe, expect, it } from 'vitest';
import { imageArgv } from '../../runtime/cluster/containers/container-client-host.js';
import { CLIENT_IMAGE_ROOT, IMAGE_NODE, IMAGE_PYTHON } from '../../runtime/cluster/containers/image-specs.js';

describe('imageArgv', () => {
  it("maps this Node and this checkout's files to where the client image has them", () => {
    const argv = imageArgv(['/usr/bin/node', '/work/co/dist/runtime/clients/client-main.js', '--x', '/elsewhere/f'], '/usr/bin/node', '/work/co');
    expect(argv).toEqual([IMAGE_NODE, `${CLIENT_IMAGE_ROOT}/dist/runtime/clients/client-main.js`, '--x', '/elsewhere/f']);
  });

  it('leaves a path that only starts like the checkout alone', () => {
    expect(imageArgv(['node', '/work/co-other/x.js'], '/usr/bin/node', '/work/co')).toEqual([IMAGE_NODE, '/work/co-other/x.js']);
  });

  it("runs a Python 3 client with the image's Debian Python, its script mapped into the image", () => {
    expect(imageArgv(['/usr/bin/python3', '/work/co/clients/python/redis_py_client.py'], '/usr/bin/node', '/work/co')).toEqual([
      IMAGE_PYTHON,
      `${CLIENT_IMAGE_ROOT}/clients/python/redis_py_client.py`,
    ]);
    expect(imageArgv(['python3.11', 'clients/python/kazoo_client.py'], '/usr/bin/node', '/work/co')).toEqual([IMAGE_PYTHON, 'clients/python/kazoo_client.py']);
    expect(imageArgv(['/usr/local/bin/python3', 'x.py'], '/usr/bin/node', '/work/co')?.[0]).toBe(IMAGE_PYTHON);
  });

  it('refuses a program the image does not have (Go, Java, Python 2, a wrapper)', () => {
    for (const program of [
      '/work/co/clients/go/etcd-mutex/etcd-mutex',
      '/work/co/clients/java/curator-mutex',
      '/usr/bin/python2',
      '/usr/bin/python',
      '/opt/python3/bin/python3',
      'wrapped-client.sh',
    ]) {
      expect(imageArgv([program, 'x'], '/usr/bin/node', '/work/co')).toBeUndefined();
    }
  });
});
