/**
 * Every writer of fencecheck against links planted where it writes (issue
 * #32, item 5): `check RUN_DIR` rewriting results.json, `report RUN_DIR`,
 * `report --index --write-reports`, `serve` writing a report on request, the
 * state file, the `latest` link, the writable-directory probe and the history
 * writer. Each is run in-process on a directory where generated links were
 * planted: at the temporary names the writers used to take (`.<name>.<pid>.<n>
 * .tmp`, `index.html.<pid>.tmp`, `<path>.<pid>.tmp`, `.fencecheck-probe.<pid>`),
 * and at the target itself; pointing at a file outside, at a path outside that
 * does not exist yet, or at a directory outside; absolute or relative.
 *
 * Whatever was planted, the file outside keeps its bytes (a missing one stays
 * missing) and the target ends as what the writer writes: a regular file (the
 * `latest` link: a link to the new run), never a link to the outside. Seeds
 * printed (test/support/seed.ts); replay with FC_SEED.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRunDir } from '../../src/check/check-run-dir.js';
import { serveResults } from '../../src/report/serve-results.js';
import { writeRunIndex } from '../../src/report/write-run-index.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { StateFile, type ClusterState } from '../../runtime/hosts/state-file.js';
import { JsonlWriter } from '../../runtime/store/jsonl-writer.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { copySampleRun, tempDir } from '../report/temp-run.js';
import { testSeed } from '../support/seed.js';

/** How many of the old per-process counter's values are planted: more than the atomic writes this file makes (two a case at most). */
const COUNTER_SPAN = 128;

type Aim = 'file' | 'missing' | 'dir';

interface Plant {
  aim: Aim;
  relativeLink: boolean;
  atTemps: boolean;
  atTarget: boolean;
}

interface Scene {
  /** The files outside and what each held before (null: did not exist). */
  outside: Map<string, string | null>;
  plant: Plant;
  n: number;
}

/** A fresh place outside the directory written: a file, a path that does not exist, and a directory. */
function outsideOf(scene: Scene, base: string): string {
  const dir = join(base, `outside-${scene.n}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${scene.plant.aim}-${scene.outside.size}`);
  if (scene.plant.aim === 'file') writeFileSync(path, `OUTSIDE ${scene.outside.size}\n`);
  if (scene.plant.aim === 'dir') mkdirSync(path);
  scene.outside.set(path, scene.plant.aim === 'file' ? readFileSync(path, 'utf8') : null);
  return path;
}

/** A link at `at` to a new outside target, absolute or relative as planned. */
function link(scene: Scene, base: string, at: string): void {
  const target = outsideOf(scene, base);
  rmSync(at, { force: true, recursive: true });
  symlinkSync(scene.plant.relativeLink ? relative(join(at, '..'), target) : target, at);
}

/** The names the writers used to take for `name` in `dir` (this process's pid, the counter's first values). */
function plantTemps(scene: Scene, base: string, dir: string, names: readonly string[]): void {
  if (!scene.plant.atTemps) return;
  const target = outsideOf(scene, base);
  for (const name of names) {
    for (let n = 1; n <= COUNTER_SPAN; n++) symlinkSync(target, join(dir, `.${name}.${process.pid}.${n}.tmp`));
    symlinkSync(target, join(dir, `${name}.${process.pid}.tmp`));
    symlinkSync(target, join(dir, `.${name}.${process.pid}.tmp`));
  }
  symlinkSync(target, join(dir, `.fencecheck-probe.${process.pid}`));
}

function plantTarget(scene: Scene, base: string, path: string): void {
  if (scene.plant.atTarget) link(scene, base, path);
}

/** Nothing outside changed: each file keeps its bytes, a missing one is still missing, a directory gained nothing. */
function assertOutsideUntouched(scene: Scene): void {
  for (const [path, before] of scene.outside) {
    if (scene.plant.aim === 'dir') expect(readdirSync(path), path).toEqual([]);
    else if (before === null) expect(existsSync(path), `${path} was created through a link`).toBe(false);
    else expect(readFileSync(path, 'utf8'), `${path} was written through a link`).toBe(before);
  }
}

function assertRegularFile(path: string): void {
  expect(lstatSync(path).isFile(), `${path} is not a regular file`).toBe(true);
}

function get(port: number, path: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode!));
    });
    req.on('error', fail);
    req.end();
  });
}

function state(): ClusterState {
  return {
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    runDir: '/r',
    subnet: '10.77.0.0/24',
    owner: { pid: 1, comm: 'node', startTime: 2, detached: false },
    namespaces: [],
    rootLinks: [],
    processes: [],
    nftTables: [],
    dataDirs: [],
  };
}

/** One writer: set the scene in `base`, write, and check what was written. */
type Writer = (scene: Scene, base: string) => Promise<void>;

const WRITERS: Record<string, Writer> = {
  'check RUN_DIR (results.json)': async (scene, base) => {
    const run = copySampleRun(base, 'run');
    plantTemps(scene, base, run, ['results.json']);
    plantTarget(scene, base, join(run, 'results.json'));
    await checkRunDir(run);
    assertRegularFile(join(run, 'results.json'));
    expect(JSON.parse(readFileSync(join(run, 'results.json'), 'utf8'))).toMatchObject({ valid: false });
  },
  'report RUN_DIR (report.html)': async (scene, base) => {
    const run = copySampleRun(base, 'run');
    plantTemps(scene, base, run, ['report.html']);
    plantTarget(scene, base, join(run, 'report.html'));
    await writeRunReport(run);
    assertRegularFile(join(run, 'report.html'));
  },
  'report --index --write-reports (index.html, report.html)': async (scene, base) => {
    const results = join(base, 'results');
    const run = copySampleRun(join(results, 't'), 'run');
    plantTemps(scene, base, results, ['index.html']);
    plantTemps(scene, base, run, ['report.html']);
    plantTarget(scene, base, join(results, 'index.html'));
    plantTarget(scene, base, join(run, 'report.html'));
    const index = await writeRunIndex(results, { writeReports: true });
    expect(index.failed).toEqual([]);
    assertRegularFile(join(results, 'index.html'));
    assertRegularFile(join(run, 'report.html'));
  },
  'serve (report.html on request)': async (scene, base) => {
    const results = join(base, 'results');
    const run = copySampleRun(join(results, 't'), 'run');
    plantTemps(scene, base, run, ['report.html']);
    plantTarget(scene, base, join(run, 'report.html'));
    const server = await serveResults({ dir: results, port: 0 });
    try {
      expect(await get(server.port, '/t/run/report.html')).toBe(200);
    } finally {
      await server.close();
    }
    assertRegularFile(join(run, 'report.html'));
  },
  'the state file': async (scene, base) => {
    const dir = join(base, 'state');
    mkdirSync(dir);
    const path = join(dir, 'cluster.json');
    plantTemps(scene, base, dir, ['cluster.json']);
    plantTarget(scene, base, path);
    const file = StateFile.create(path, state());
    file.update((s) => s.namespaces.push('fc-sw'));
    assertRegularFile(path);
    expect(StateFile.read(path)?.namespaces).toEqual(['fc-sw']);
  },
  'the latest link (create, then discard)': async (scene, base) => {
    const results = join(base, 'results');
    const first = RunStore.create(results, 't', new Date('2026-11-30T19:20:05Z'));
    const parent = join(results, 't');
    plantTemps(scene, base, parent, ['latest']);
    plantTarget(scene, base, join(parent, 'latest'));
    const second = RunStore.create(results, 't', new Date('2026-11-30T19:20:06Z'));
    expect(readlinkSync(join(parent, 'latest'))).toBe('20261130T192006');
    second.discard();
    // Back to what it was: the first run, or (a link was planted there) that link's text, as a link again.
    expect(lstatSync(join(parent, 'latest')).isSymbolicLink()).toBe(true);
    if (!scene.plant.atTarget) expect(statSync(join(parent, 'latest')).ino).toBe(statSync(first.dir).ino);
  },
  'the writable-directory probe': async (scene, base) => {
    const dir = join(base, 'out');
    mkdirSync(dir);
    plantTemps(scene, base, dir, []);
    ensureWritableDir(dir, '`--results`');
  },
  'the store writer (test.json)': async (scene, base) => {
    const dir = join(base, 'run');
    mkdirSync(dir);
    plantTemps(scene, base, dir, ['test.json']);
    plantTarget(scene, base, join(dir, 'test.json'));
    writeFileAtomic(join(dir, 'test.json'), '{"name": "x"}\n');
    assertRegularFile(join(dir, 'test.json'));
    expect(readFileSync(join(dir, 'test.json'), 'utf8')).toBe('{"name": "x"}\n');
  },
};

const plant: fc.Arbitrary<Plant> = fc
  .record({ aim: fc.constantFrom<Aim>('file', 'missing', 'dir'), relativeLink: fc.boolean(), atTemps: fc.boolean(), atTarget: fc.boolean() })
  .filter((p) => p.atTemps || p.atTarget);

describe('every writer, with links planted at its temporary names and at its target', () => {
  it('leaves the outside untouched and writes a regular file', async () => {
    const seed = testSeed('planted links', 'test/store/planted-links.test.ts');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(WRITERS)), plant, async (writer, p) => {
        const base = tempDir('fencecheck-planted-');
        const scene: Scene = { outside: new Map(), plant: p, n: n++ };
        try {
          await WRITERS[writer]!(scene, base);
          assertOutsideUntouched(scene);
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }),
      { seed, numRuns: 40 },
    );
  }, 120_000);

  it('every writer is drawn: each one runs once with links everywhere', async () => {
    for (const [name, write] of Object.entries(WRITERS)) {
      const base = tempDir('fencecheck-planted-');
      const scene: Scene = {
        outside: new Map(),
        plant: { aim: 'file', relativeLink: false, atTemps: true, atTarget: name !== 'the writable-directory probe' },
        n: 0,
      };
      await write(scene, base);
      assertOutsideUntouched(scene);
      expect(scene.outside.size, name).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the history writer refuses a link at history.jsonl (254) and writes nothing through it', () => {
    const base = tempDir('fencecheck-planted-');
    const scene: Scene = { outside: new Map(), plant: { aim: 'file', relativeLink: true, atTemps: false, atTarget: true }, n: 0 };
    const path = join(base, 'history.jsonl');
    link(scene, base, path);
    for (const truncate of [true, false]) expect(() => JsonlWriter.open(path, { truncate })).toThrow(/symbolic link is there; not followed/);
    assertOutsideUntouched(scene);
  });

  it('a temporary file is never left behind', () => {
    const dir = tempDir('fencecheck-planted-');
    for (let i = 0; i < 5; i++) writeFileAtomic(join(dir, 'results.json'), `${i}\n`);
    expect(readdirSync(dir)).toEqual(['results.json']);
  });
});
