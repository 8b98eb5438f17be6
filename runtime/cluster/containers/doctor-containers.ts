/**
 * The containers provider's part of `fencecheck doctor`: a daemon that
 * answers (and its API version, which the docker CLI negotiates down to),
 * this checkout's images, and containers or networks left by an earlier
 * run (doctor.ts says from them whether this machine can use the provider).
 */
import type { DoctorCheck } from '../doctor-check.js';
import { PROJECT_LABEL } from './container-labels.js';
import { docker, dockerStatus, imageExists } from './docker-cli.js';
import { IMAGE_NAMES } from './image-specs.js';
import { imageRef } from './image-tags.js';

export async function containerChecks(): Promise<DoctorCheck[]> {
  const status = await dockerStatus();
  if (!status.usable)
    return [
      {
        name: 'docker',
        ok: false,
        detail: status.reason ?? 'no daemon',
        hint: 'Run `npm run setup -- --docker` as root (Debian: installs docker.io, starts dockerd), or start Docker Desktop.',
      },
    ];
  const checks: DoctorCheck[] = [{ name: 'docker', ok: true, detail: `daemon ${status.server ?? '?'}` }];
  for (const name of IMAGE_NAMES) {
    const ref = imageRef(name);
    checks.push(
      (await imageExists(ref))
        ? { name: `image ${name}`, ok: true, detail: ref }
        : {
            name: `image ${name}`,
            ok: false,
            detail: `${ref} missing (this checkout's content hash)`,
            hint: 'Run `fencecheck images build` (after `npm run build`).',
          },
    );
  }
  const left = (await docker(['ps', '-a', '--filter', `label=${PROJECT_LABEL}=fencecheck`, '--format', '{{.Names}}'], { reject: false })).stdout
    .split('\n')
    .filter(Boolean);
  checks.push(
    left.length === 0
      ? { name: 'containers', ok: true, detail: 'none left' }
      : {
          name: 'containers',
          ok: false,
          detail: `${left.length} with the project's label: ${left.slice(0, 6).join(' ')}${left.length > 6 ? ' …' : ''}`,
          hint: 'A cluster is up or an earlier run died: `fencecheck down` removes them.',
        },
  );
  return checks;
}
