/**
 * `fencecheck images build [NAME...]`: the container provider's images
 * (servers, client), cached by content hash; bases made locally when missing.
 */
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { buildImages } from '../../runtime/cluster/containers/build-images.js';
import { IMAGE_NAMES, type ImageName } from '../../runtime/cluster/containers/image-specs.js';

export function registerImagesCommand(program: Command): void {
  const images = program.command('images').description("The container provider's images: `images build` makes them (cached by content hash).");
  images
    .command('build')
    .argument('[names...]', `images to build (${IMAGE_NAMES.join(', ')}; default all)`)
    .description('Build the servers and client images (docker build --network host), skipping those whose content-hash tag exists.')
    .action(async (names: string[]) => {
      const bad = names.find((n) => !(IMAGE_NAMES as readonly string[]).includes(n));
      if (bad !== undefined) throw new UsageError(`Expected an image name (${IMAGE_NAMES.join(', ')}), got \`${bad}\``);
      const wanted = (names.length > 0 ? names : IMAGE_NAMES) as ImageName[];
      await buildImages((line) => void process.stdout.write(`${line}\n`), wanted);
    });
}
