/**
 * doctor's line for the Python reference clients (clients/python): Debian's
 * /usr/bin/python3 and the lock libraries they import, each with the version
 * it reports. `npm run setup` installs them (setup.ts); the line names the
 * packages that are missing. Pure judgement (pythonLibrariesCheck) beside one
 * probe (probePythonLibraries), so the wording is tested without a Python.
 */
import { existsSync } from 'node:fs';
import type { DoctorCheck } from './doctor-check.js';
import { runCommand } from '../hosts/run-command.js';

export const PYTHON = '/usr/bin/python3';

/** The distribution each reference client imports, and the Debian package that provides it. */
export const PYTHON_LIBRARIES: readonly { dist: string; pkg: string }[] = [
  { dist: 'redis', pkg: 'python3-redis' },
  { dist: 'kazoo', pkg: 'python3-kazoo' },
  { dist: 'etcd3', pkg: 'python3-etcd3' },
  { dist: 'psycopg2', pkg: 'python3-psycopg2' },
  { dist: 'tooz', pkg: 'python3-tooz' },
  { dist: 'etcd3gw', pkg: 'python3-etcd3gw' },
  { dist: 'pymemcache', pkg: 'python3-pymemcache' },
  // The Python job queues (docs/queues.md).
  { dist: 'celery', pkg: 'python3-celery' },
  { dist: 'rq', pkg: 'python3-rq' },
];

/** The doctor line from what the probe found: each distribution's version, or null when it is missing (pure). */
export function pythonLibrariesCheck(found: Readonly<Record<string, string | null>> | null): DoctorCheck {
  const name = 'python libraries';
  if (found === null) return { name, ok: false, detail: `${PYTHON} not found`, hint: 'Run `npm run setup` (Debian package python3).' };
  const missing = PYTHON_LIBRARIES.filter((l) => typeof found[l.dist] !== 'string');
  if (missing.length > 0) {
    return {
      name,
      ok: false,
      detail: `missing for the Python reference clients: ${missing.map((l) => l.dist).join(', ')}`,
      hint: `Run \`npm run setup\` (Debian packages ${missing.map((l) => l.pkg).join(' ')}).`,
    };
  }
  return { name, ok: true, detail: PYTHON_LIBRARIES.map((l) => `${l.dist} ${found[l.dist]}`).join(', ') };
}

/** Asks /usr/bin/python3 for each distribution's version (importlib.metadata, nothing imported); null without a Python. */
export async function probePythonLibraries(): Promise<Record<string, string | null> | null> {
  if (!existsSync(PYTHON)) return null;
  const script = [
    'import json, sys',
    'from importlib.metadata import version, PackageNotFoundError',
    'def v(d):',
    '    try: return version(d)',
    '    except PackageNotFoundError: return None',
    'print(json.dumps({d: v(d) for d in sys.argv[1:]}))',
  ].join('\n');
  const out = await runCommand(PYTHON, ['-c', script, ...PYTHON_LIBRARIES.map((l) => l.dist)], { reject: false, timeoutMs: 10_000 });
  try {
    return JSON.parse(out.stdout) as Record<string, string | null>;
  } catch {
    return {};
  }
}
