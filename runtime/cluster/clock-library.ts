/**
 * Build and check the project's LD_PRELOAD wall-clock library
 * (native/fc-clock.c -> native/build/libfc-clock.so, git-ignored).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeClockOffset } from '../hosts/clock-file.js';
import { which } from '../hosts/binaries.js';
import { PreflightError } from '../hosts/cluster-errors.js';
import { clockLibraryPath, clockLibrarySource } from '../hosts/paths.js';
import { runCommand } from '../hosts/run-command.js';

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** True when the library exists and is newer than its source. */
export function clockLibraryUpToDate(): boolean {
  const lib = mtime(clockLibraryPath());
  const src = mtime(clockLibrarySource());
  return lib !== undefined && src !== undefined && lib >= src;
}

/** Compile the library with gcc unless it is up to date; returns whether it compiled. */
export async function buildClockLibrary(force = false): Promise<boolean> {
  if (!force && clockLibraryUpToDate()) return false;
  const gcc = which('gcc');
  if (!gcc) throw new PreflightError('gcc is not installed: cannot build the clock library.', 'Run `npm run setup` as root (it installs gcc).');
  mkdirSync(dirname(clockLibraryPath()), { recursive: true });
  await runCommand(gcc, ['-O2', '-shared', '-fPIC', '-Wall', '-Wextra', '-Werror', '-o', clockLibraryPath(), clockLibrarySource()], {
    hint: 'Check that gcc and libc6-dev are installed (`fencecheck doctor`).',
  });
  return true;
}

/**
 * Run `date +%s` with the library and a +1 day offset: the date it prints must
 * be a day ahead. Returns the measured shift in seconds.
 */
export async function checkClockLibrary(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'fc-clock-'));
  try {
    const file = join(dir, 'offset');
    writeClockOffset(file, 86_400_000, 'w');
    const before = Math.floor(Date.now() / 1000);
    const out = await runCommand('date', ['+%s'], { env: { ...process.env, LD_PRELOAD: clockLibraryPath(), FC_CLOCK_FILE: file } as Record<string, string> });
    const shift = Number(out.stdout.trim()) - before;
    if (Math.abs(shift - 86_400) > 5) {
      throw new PreflightError(
        `The clock library did not shift the clock: expected +86400 s, measured ${shift} s.`,
        'Rebuild it with `npm run setup`; see docs/cluster.md.',
      );
    }
    return shift;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
