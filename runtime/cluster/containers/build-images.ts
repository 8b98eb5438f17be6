/**
 * `fencecheck images build`: every image the container provider runs, each
 * skipped when its content-hash tag exists, bases made locally when missing,
 * and `docker build` steps printed as progress lines.
 */
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { CommandError } from '../../hosts/cluster-errors.js';
import { projectRoot } from '../../hosts/paths.js';
import { ensureDebianBase, ensureNodeBase } from './bootstrap-bases.js';
import { imageExists } from './docker-cli.js';
import { DEBIAN_BASE, IMAGE_NAMES, IMAGE_SPECS, type ImageName } from './image-specs.js';
import { imageRef } from './image-tags.js';

export interface BuiltImage {
  name: ImageName;
  ref: string;
  built: boolean;
  ms: number;
}

export async function buildImages(log: (line: string) => void, names: readonly ImageName[] = IMAGE_NAMES): Promise<BuiltImage[]> {
  const out: BuiltImage[] = [];
  for (const name of names) {
    const spec = IMAGE_SPECS[name];
    const ref = imageRef(name);
    const t = Date.now();
    if (await imageExists(ref)) {
      log(`${name}: ${ref} up to date`);
      out.push({ name, ref, built: false, ms: 0 });
      continue;
    }
    if (spec.base === DEBIAN_BASE) await ensureDebianBase(log);
    else await ensureNodeBase(log);
    log(`${name}: building ${ref} from ${spec.dockerfile}`);
    // --network host: apt-get inside the build reaches the mirror even where the default bridge has no route out.
    const args = ['build', '--network', 'host', '-f', spec.dockerfile, '-t', ref, '-t', `${spec.repository}:latest`, '.'];
    const child = execa('docker', args, { cwd: projectRoot(), reject: false, all: true, timeout: 1_800_000, env: { DOCKER_BUILDKIT: '0' } });
    const tail: string[] = [];
    if (child.all) {
      for await (const line of createInterface({ input: child.all })) {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (/^Step \d+\/\d+ :/.test(line)) log(`${name}: ${line.length > 140 ? `${line.slice(0, 137)}...` : line}`);
      }
    }
    const r = await child;
    if (r.exitCode !== 0)
      throw new CommandError(['docker', ...args], r.exitCode, tail.join('\n'), 'Read the build output above; `fencecheck doctor` checks Docker.');
    const ms = Date.now() - t;
    log(`${name}: built ${ref} in ${Math.round(ms / 1000)} s`);
    out.push({ name, ref, built: true, ms });
  }
  return out;
}
