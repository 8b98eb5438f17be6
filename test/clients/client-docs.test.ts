/**
 * Every reference client fencecheck knows by name (runtime/runner/client-registry.ts) has its row in
 * docs/client-protocol.md's table, with its name, its backends and the token kind the registry gives it:
 * the table a user reads to pick a `--client` says what `--lock-clients` will run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMED_CLIENTS } from '../../runtime/runner/client-registry.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

const doc = readFileSync(join(projectRoot(), 'docs', 'client-protocol.md'), 'utf8');
const rows = doc.split('\n').filter((l) => l.startsWith('| `') && l.split('|').length >= 7);

describe('docs/client-protocol.md lists every named client', () => {
  it.each(NAMED_CLIENTS.map((c) => [c.name, c] as const))('%s: a row with its backends and token kind', (name, c) => {
    const row = rows.find((r) => r.split('|')[2]?.trim() === `\`${name}\``);
    expect(row, `no row names \`${name}\` in docs/client-protocol.md's client table`).toBeDefined();
    const cells = row!.split('|').map((x) => x.trim());
    for (const b of c.backends) expect(cells[4]).toContain(`\`${b}\``);
    expect(cells[5]).toMatch(new RegExp(`^\`${c.token}\``));
  });
});
