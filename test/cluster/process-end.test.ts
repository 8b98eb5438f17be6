/**
 * What a process removes at its end, run in a real child process (the built
 * runtime/hosts/process-end.js): at exit; on a signal nothing else listens
 * for, after which the signal still ends the process; and, when something
 * else listens (a hunt's stop after its tries), not at the signal but at the
 * exit that listener makes.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { madeTempDir } from '../support/temp-dirs.js';

const MODULE = join(projectRoot(), 'dist', 'runtime', 'hosts', 'process-end.js');

/** A child that registers the removal of `file`, adds `extra` code, says READY and waits; its end and whether the file is left. */
async function child(file: string, extra: string, signal?: NodeJS.Signals): Promise<{ ended: string; left: boolean }> {
  writeFileSync(file, 'x');
  const script = `import(${JSON.stringify(MODULE)}).then((m) => {
    m.atProcessEnd(() => require('node:fs').rmSync(${JSON.stringify(file)}));
    ${extra}
    process.stdout.write('READY\\n');
    setTimeout(() => process.exit(0), 20000);
  });`;
  const c = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => c.stdout!.on('data', (d: Buffer) => d.toString().includes('READY') && resolve()));
  if (signal) c.kill(signal);
  const ended = await new Promise<string>((resolve) => c.once('exit', (code, sig) => resolve(sig ?? `exit ${code}`)));
  return { ended, left: existsSync(file) };
}

describe('process end cleanups', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s that nothing else listens for: the cleanups run, then the signal ends the process', async (signal) => {
    const file = join(madeTempDir('fc-process-end-'), 'mark');
    expect(await child(file, '', signal)).toEqual({ ended: signal, left: false });
  });

  it('at exit', async () => {
    const file = join(madeTempDir('fc-process-end-'), 'mark');
    expect(await child(file, 'setTimeout(() => process.exit(3), 100);')).toEqual({ ended: 'exit 3', left: false });
  });

  it('a signal another listener handles is left to it: the cleanups run at the exit it makes', async () => {
    const file = join(madeTempDir('fc-process-end-'), 'mark');
    const graceful = "process.on('SIGINT', () => setTimeout(() => process.exit(0), 200));";
    expect(await child(file, graceful, 'SIGINT')).toEqual({ ended: 'exit 0', left: false });
  });
});
