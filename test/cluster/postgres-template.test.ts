/**
 * PostgreSQL's initdb template: made once (under a temporary name, then
 * renamed), copied for every data dir after; two nodes starting at once share
 * one initdb; a half-made template left by a killed harness is replaced.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initFromTemplate, type TemplateIo } from '../../runtime/cluster/backends/postgres-template.js';
import { removableDataDirs } from '../../runtime/cluster/data-dirs.js';
import { pgTemplateDir, sharedDataDir } from '../../runtime/hosts/paths.js';

const temp = (): string => madeTempDir('fc-pg-template-test-');

/** An initdb that writes what a data dir's check needs, counted. */
function fakeIo(): TemplateIo & { initdbs: string[] } {
  const initdbs: string[] = [];
  return {
    initdbs,
    initdb: async (dir) => {
      initdbs.push(dir);
      writeFileSync(join(dir, 'PG_VERSION'), '15\n');
      writeFileSync(join(dir, 'postgresql.conf'), `# made in ${dir}\n`);
    },
    chown: async () => undefined,
    copy: async (t, d) => cpSync(t, d, { recursive: true }),
  };
}

describe('initFromTemplate', () => {
  it('runs initdb once, into a temporary name renamed into place, and copies it for every data dir', async () => {
    const root = temp();
    const template = join(root, 'cache', 'pg-initdb-x');
    const io = fakeIo();
    for (const n of ['pg1', 'pg2']) {
      mkdirSync(join(root, n));
      await initFromTemplate(template, join(root, n), io);
      expect(readFileSync(join(root, n, 'PG_VERSION'), 'utf8')).toBe('15\n');
    }
    expect(io.initdbs).toEqual([`${template}.tmp-${process.pid}`]);
    expect(readdirSync(join(root, 'cache'))).toEqual(['pg-initdb-x']);
  });

  it('two nodes at once share one initdb', async () => {
    const root = temp();
    const io = fakeIo();
    await Promise.all(['pg1', 'pgl1'].map((n) => (mkdirSync(join(root, n)), initFromTemplate(join(root, 'cache', 't'), join(root, n), io))));
    expect(io.initdbs).toHaveLength(1);
    expect(existsSync(join(root, 'pgl1', 'PG_VERSION'))).toBe(true);
  });

  it('a half-made template (a killed harness: no PG_VERSION, a .tmp- left) is made again and the leftover removed', async () => {
    const root = temp();
    const template = join(root, 'cache', 't');
    mkdirSync(template, { recursive: true });
    mkdirSync(`${template}.tmp-999999`);
    writeFileSync(join(template, 'half'), '');
    const io = fakeIo();
    mkdirSync(join(root, 'pg1'));
    await initFromTemplate(template, join(root, 'pg1'), io);
    expect(io.initdbs).toHaveLength(1);
    expect(readdirSync(join(root, 'cache'))).toEqual(['t']);
    expect(existsSync(join(root, 'pg1', 'half'))).toBe(false);
  });

  it('lives beside the PostgreSQL data dirs, where reclaim and teardown remove recorded dirs (nothing kept between runs)', () => {
    const runDir = '/work/results/x/20261201T000000';
    const template = pgTemplateDir(runDir);
    expect(dirname(template)).toBe(sharedDataDir(runDir));
    expect(removableDataDirs({ runDir, dataDirs: [template] })).toEqual([template]);
  });
});
