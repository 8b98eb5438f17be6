/**
 * docs/client-protocol.md against the code it describes, wherever a list can be derived: every reference
 * client fencecheck knows by name (runtime/runner/client-registry.ts) has its row in the clients table,
 * with its name, its backends and the token kind the registry gives it (the table a user reads to pick a
 * `--client` says what `--lock-clients` will run); the config's `backend` list is the lock services; the
 * token table's modes are clientModes (core/client-modes.ts); the statements table has every mode. And the
 * registry's features are what each client's ready line announces.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMED_CLIENTS } from '../../runtime/runner/client-registry.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { LOCK_SERVICES, RESOURCE_MODES } from '../../core/vocabulary.js';
import { CLIENT_TOKEN_KINDS, type ClientTokenKind } from '../../core/client-protocol.js';
import { clientModes } from '../../core/client-modes.js';

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

/** The lines of one `## Heading` section of the doc. */
function section(heading: string): string[] {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `docs/client-protocol.md has a section "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start, end === -1 ? undefined : end);
}

const cellsOf = (row: string): string[] =>
  row
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
const named = (text: string): string[] => [...text.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!);

describe('docs/client-protocol.md says what the code does', () => {
  it("FC_CLIENT_CONFIG's `backend` lists every lock service a client can be started for, and no other", () => {
    const row = doc.split('\n').find((l) => l.startsWith('| `backend` |'))!;
    const listed = named(cellsOf(row)[1]!.split(':')[1]!.split('(')[0]!);
    expect([...listed].sort()).toEqual([...LOCK_SERVICES].sort());
  });

  it('the token table\'s "modes that apply" are clientModes of each kind, without and with `transactions`', () => {
    const rows = section('Tokens')
      .filter((l) => /^\| `(monotonic|unique|none)` \|/.test(l))
      .map(cellsOf);
    expect(rows.map((r) => named(r[0]!)[0])).toEqual([...CLIENT_TOKEN_KINDS]);
    for (const r of rows) {
      const token = named(r[0]!)[0] as ClientTokenKind;
      const [without, withTx = ''] = r[3]!.split('with `transactions` also');
      expect(named(without!), `${token} without transactions`).toEqual(clientModes({ token }));
      expect([...named(without!), ...named(withTx)], `${token} with transactions`).toEqual(
        clientModes({ token, features: ['transactions'] }).sort((a, b) => RESOURCE_MODES.indexOf(a) - RESOURCE_MODES.indexOf(b)),
      );
    }
  });

  it('the statements table has one row per resource mode, in order, and the prose counts them right', () => {
    const rows = section('The resource statements travel in the request')
      .filter((l) => /^\| `[a-z-]+` \| /.test(l))
      .map((l) => named(cellsOf(l)[0]!)[0]);
    expect(rows).toEqual([...RESOURCE_MODES]);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    const counts = [...doc.matchAll(/\b(\w+) modes\b/g)].map((m) => m[1]!.toLowerCase()).filter((w) => words.includes(w));
    expect(counts.length).toBeGreaterThan(0);
    for (const w of counts) expect(words.indexOf(w), `"${w} modes"`).toBe(RESOURCE_MODES.length);
    expect(doc).not.toMatch(/\ball (two|three|four|five|six|eight|nine|ten)\b/);
  });
});

describe("the registry's features are what each named client announces", () => {
  // The Go and Java clients write their own ready line; the others go through a protocol helper, which announces `transactions`.
  const OWN_READY_LINE: Record<string, string> = { 'etcd-mutex': 'clients/go/etcd-mutex/main.go', curator: 'clients/java/CuratorMutexClient.java' };
  const helpers = ['clients/python/fencecheck_protocol.py', 'clients/node/fencecheck-protocol.mjs'].map((f) => readFileSync(join(projectRoot(), f), 'utf8'));

  it('the helpers announce transactions', () => {
    for (const h of helpers) expect(h).toMatch(/features["']?: \[["']transactions["']\]/);
  });

  it.each(NAMED_CLIENTS.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const own = OWN_READY_LINE[name];
    if (own !== undefined) {
      expect(readFileSync(join(projectRoot(), own), 'utf8')).not.toMatch(/features/);
      expect(c.features).toEqual([]);
      return;
    }
    const program = c.argv(projectRoot()).find((w) => /\.(py|mjs)$/.test(w))!;
    expect(readFileSync(program, 'utf8'), `${program} goes through a protocol helper`).toMatch(/fencecheck_protocol|fencecheck-protocol/);
    expect(c.features).toEqual(['transactions']);
  });
});
