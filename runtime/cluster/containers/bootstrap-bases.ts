/**
 * The base images: pulled where a registry answers, else made locally:
 * `debian:bookworm` from a `debootstrap --variant=minbase` root file system
 * (the machine's own Debian mirror), imported with `docker import`; and
 * `node:20-bookworm-slim` as that Debian plus this machine's own Node 20
 * binary (it needs only glibc and libstdc++). Elsewhere they are pulled, and
 * the same Dockerfiles serve.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { which } from '../../hosts/binaries.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import { projectRoot } from '../../hosts/paths.js';
import { runCommand } from '../../hosts/run-command.js';
import { docker, imageExists } from './docker-cli.js';
import { DEBIAN_BASE, NODE_BASE } from './image-specs.js';

/** The first bookworm mirror in the apt sources (deb822 `.sources` or one-line lists); pure. */
export function debianMirror(sources: readonly string[]): string | undefined {
  for (const text of sources) {
    for (const stanza of text.split(/\n\s*\n/)) {
      const uris = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1]?.split(/\s+/) ?? [];
      if (uris && suites.includes('bookworm') && !/^Enabled:\s*no/im.test(stanza)) return uris;
    }
    const line = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text);
    if (line?.[1]) return line[1];
  }
  return undefined;
}

function aptSources(): string[] {
  const dir = '/etc/apt/sources.list.d';
  const files = [
    ...(existsSync('/etc/apt/sources.list') ? ['/etc/apt/sources.list'] : []),
    ...(existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.sources') || f.endsWith('.list'))
          .map((f) => join(dir, f))
      : []),
  ];
  return files.map((f) => readFileSync(f, 'utf8'));
}

/** Pulled where a registry answers (Docker Desktop, most CI); whether it came. */
async function pulled(ref: string, log: (line: string) => void): Promise<boolean> {
  const r = await docker(['pull', '-q', ref], { reject: false, timeoutMs: 600_000 }).catch(() => undefined);
  if (r?.exitCode === 0) log(`${ref}: pulled`);
  else log(`${ref}: cannot pull (${(r?.stderr.split('\n')[0] ?? 'docker pull failed').trim()}); making it here`);
  return r?.exitCode === 0;
}

/** `debian:bookworm`: present, pulled, or debootstrapped and imported (about 35 s, 200 MB). */
export async function ensureDebianBase(log: (line: string) => void): Promise<void> {
  if ((await imageExists(DEBIAN_BASE)) || (await pulled(DEBIAN_BASE, log))) return;
  const debootstrap = which('debootstrap');
  if (!debootstrap)
    throw new PreflightError(
      `The base image ${DEBIAN_BASE} is missing and debootstrap is not installed to make it.`,
      `\`docker pull ${DEBIAN_BASE}\` where a registry is reachable, or \`npm run setup -- --docker\` (installs debootstrap).`,
    );
  const mirror = debianMirror(aptSources()) ?? 'http://deb.debian.org/debian';
  const rootfs = mkdtempSync('/var/tmp/fencecheck-rootfs-');
  try {
    log(`${DEBIAN_BASE}: debootstrap --variant=minbase bookworm from ${mirror} (about 35 s)`);
    const t = Date.now();
    await runCommand(debootstrap, ['--variant=minbase', 'bookworm', rootfs, mirror], { timeoutMs: 900_000 });
    log(`${DEBIAN_BASE}: root file system in ${Math.round((Date.now() - t) / 1000)} s; docker import`);
    await execa('sh', ['-c', 'tar -C "$1" -c . | docker import - "$2"', 'sh', rootfs, DEBIAN_BASE], { timeout: 600_000 });
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

/** `node:20-bookworm-slim`: present, pulled, or Debian plus this machine's Node (only a Node 20 will do). */
export async function ensureNodeBase(log: (line: string) => void): Promise<void> {
  if ((await imageExists(NODE_BASE)) || (await pulled(NODE_BASE, log))) return;
  if (!process.version.startsWith('v20.'))
    throw new PreflightError(
      `The base image ${NODE_BASE} is missing, and this machine's Node is ${process.version}, not 20.`,
      `\`docker pull ${NODE_BASE}\` where a registry is reachable.`,
    );
  await ensureDebianBase(log);
  const context = mkdtempSync('/var/tmp/fencecheck-node-');
  try {
    copyFileSync(process.execPath, join(context, 'node'));
    log(`${NODE_BASE}: ${DEBIAN_BASE} + this machine's ${process.execPath} (${process.version})`);
    await docker(['build', '-q', '-t', NODE_BASE, '-f', join(projectRoot(), 'images/node20.Dockerfile'), context], { timeoutMs: 600_000 });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
