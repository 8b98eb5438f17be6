/**
 * The Python queue helper (clients/python/fencecheck_queue_protocol.py) turns the runner's effect
 * statement into psycopg2's form. attempt-fence's statement names $2 twice: positional `%s` would
 * ask for four values and every effect would fail (a run of 1443 jobs all "lost" showed it). Each
 * mode's statement must come out with named parameters only, one name per $N. Needs Debian's
 * /usr/bin/python3 (`npm run setup`); skipped, saying so, without it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EFFECT_SQL } from '../../core/queue/queue-resource-sql.js';
import { QUEUE_MODES } from '../../core/queue/queue-libraries.js';
import { PYTHON } from '../../runtime/cluster/doctor-python.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

const hasPython = existsSync(PYTHON);
if (!hasPython) console.log(`skipped: ${PYTHON} is missing (npm run setup installs it)`);

function pyformat(sql: string): string {
  const script = `import sys; sys.path.insert(0, ${JSON.stringify(join(projectRoot(), 'clients', 'python'))})\nfrom fencecheck_queue_protocol import _pyformat\nsys.stdout.write(_pyformat(sys.stdin.read()))`;
  return execFileSync(PYTHON, ['-c', script], { input: sql, encoding: 'utf8' });
}

describe.skipIf(!hasPython)('the Python queue helper', () => {
  it.each(QUEUE_MODES)("converts %s's effect statement to named psycopg2 parameters, each $N to %(pN)s", (mode) => {
    const sql = EFFECT_SQL[mode];
    const out = pyformat(sql);
    expect(out).not.toMatch(/\$\d/);
    expect(out.match(/%\(p\d\)s/g)?.length).toBe(sql.match(/\$\d/g)?.length);
    expect(out.replace(/%\(p(\d)\)s/g, '$$$1')).toBe(sql);
  });
});
