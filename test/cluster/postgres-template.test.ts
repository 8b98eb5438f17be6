/**
 * PostgreSQL's initdb template: made once (under a temporary name, then
 * renamed), copied for every data dir after; two nodes starting at once share
 * one initdb; a half-made template left by a killed harness is replaced; the
 * template is the process's, and what an ended process left is swept.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, cpSync, existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initFromTemplate, type TemplateIo } from '../../runtime/cluster/backends/postgres-template.js';
import { removableDataDirs } from '../../runtime/cluster/data-dirs.js';
import { processPgTemplate, removeOrphanedPgTemplates, removeProcessPgTemplate, templateOwner } from '../../runtime/cluster/backends/process-pg-template.js';
import { ownIdentity } from '../../runtime/hosts/process-info.js';

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

  it('a making that failed in another cluster is made again by one that waited for it', async () => {
    const root = temp();
    const template = join(root, 'cache', 't');
    const io = fakeIo();
    let failOnce = true;
    const failing: TemplateIo = {
      ...io,
      initdb: async (dir) => {
        if (failOnce) {
          failOnce = false;
          throw new Error('torn down mid-initdb');
        }
        await io.initdb(dir);
      },
    };
    mkdirSync(join(root, 'pg1'));
    mkdirSync(join(root, 'pg2'));
    const [first, second] = await Promise.allSettled([
      initFromTemplate(template, join(root, 'pg1'), failing),
      initFromTemplate(template, join(root, 'pg2'), failing),
    ]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    expect(readFileSync(join(root, 'pg2', 'PG_VERSION'), 'utf8')).toBe('15\n');
  });
});

describe('the process template', () => {
  it('is one folder a process, named from its pid and start time, traversable by the postgres user, removed at its end', () => {
    const template = processPgTemplate();
    expect(processPgTemplate()).toBe(template);
    const folder = dirname(template);
    const me = ownIdentity();
    expect(templateOwner(basename(folder))).toEqual({ pid: me.pid, startTime: me.startTime });
    expect(statSync(folder).mode & 0o777).toBe(0o755);
    removeProcessPgTemplate();
    expect(existsSync(folder)).toBe(false);
    expect(processPgTemplate()).not.toBe(template);
    removeProcessPgTemplate();
  });

  it('is not a recorded data dir of a cluster: teardown of one cluster leaves it to the others', () => {
    const runDir = '/work/results/x/20261201T000000';
    expect(removableDataDirs({ runDir, dataDirs: [processPgTemplate()] })).toEqual([]);
    removeProcessPgTemplate();
  });

  it("an ended process's template is removed by the next sweep; a running one's and other names are left", () => {
    const root = temp();
    const me = ownIdentity();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    const names = {
      mine: `fencecheck-pgtemplate-${me.pid}-${me.startTime}-Ab12Cd`,
      reused: `fencecheck-pgtemplate-${me.pid}-${me.startTime + 1}-Ab12Cd`,
      ended: `fencecheck-pgtemplate-${ended}-1-xYz9`,
      other: 'fencecheck-data-0123456789ab',
      odd: 'fencecheck-pgtemplate-../x',
    };
    for (const n of Object.values(names).filter((n) => !n.includes('/'))) mkdirSync(join(root, n));
    const removed = removeOrphanedPgTemplates([root]).map((p) => basename(p));
    expect(removed.sort()).toEqual([names.ended, names.reused].sort());
    expect(readdirSync(root).sort()).toEqual([names.mine, names.other].sort());
  });

  it('reads an owner only from a name of its own form', () => {
    expect(templateOwner('fencecheck-pgtemplate-12-345-aB3dEf')).toEqual({ pid: 12, startTime: 345 });
    for (const bad of ['fencecheck-pgtemplate-12-345', 'fencecheck-pgtemplate-x-345-aB', 'fencecheck-data-12-345-aB', 'fencecheck-pgtemplate-12-345-a/b'])
      expect(templateOwner(bad)).toBeUndefined();
  });
});
