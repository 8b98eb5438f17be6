/**
 * `fencecheck check RUN_DIR` on a run made with `--client`: it judges the
 * history again as the run did, with the token kind the client announced and
 * the protocol violations the run saw (both in test.json), and refuses a
 * damaged record of them (254).
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRunDir } from '../../src/check/check-run-dir.js';
import { FencecheckError } from '../../core/errors.js';

const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runs', 'sample-run');

function runDir(extra: Record<string, unknown>): string {
  const dir = madeTempDir('fc-client-run-');
  copyFileSync(join(SAMPLE, 'history.jsonl'), join(dir, 'history.jsonl'));
  const test = JSON.parse(readFileSync(join(SAMPLE, 'test.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'test.json'), JSON.stringify({ ...test, ...extra }));
  return dir;
}

describe('checkRunDir with a foreign client', () => {
  it('without client fields: the checkers alone, as before', async () => {
    const { results: r } = await checkRunDir(runDir({}));
    expect(r.checkers.map((v) => v.checker)).not.toContain('client-protocol');
  });

  it("a client's violations come back as the deciding client-protocol verdict", async () => {
    const { results: r } = await checkRunDir(
      runDir({
        client: 'python3 c.py',
        clientToken: 'monotonic',
        clientViolations: [{ client: 'client1-1', problem: 'printed a line that is not JSON', stderrTail: ['Traceback'] }],
      }),
    );
    const v = r.checkers.find((x) => x.checker === 'client-protocol');
    expect(v).toMatchObject({ valid: 'unknown', summary: expect.stringContaining('printed a line that is not JSON') });
    expect(r.deciding).toContain('client-protocol');
    expect(r.valid).not.toBe(true);
  });

  it('a unique-token client: no token order is checked', async () => {
    const { results: r } = await checkRunDir(runDir({ client: 'python3 c.py', clientToken: 'unique', clientViolations: [] }));
    expect(r.checkers.find((x) => x.checker === 'grant-tokens')?.summary).toContain('unique tokens');
  });

  it("any run's client crashes come back as the deciding client-crashes verdict, counted in the evidence", async () => {
    const { results: clean } = await checkRunDir(runDir({}));
    expect(clean.evidence.clients).toEqual({ crashes: 0, first: null });
    expect(clean.checkers.map((v) => v.checker)).not.toContain('client-crashes');
    const crash = { client: 'client2-8', exit: 'signal SIGABRT', stderrTail: ["uv_poll_start: Assertion `!uv__is_closing(handle)' failed."] };
    const { results: r } = await checkRunDir(runDir({ clientCrashes: [crash, { ...crash, client: 'client3-9' }] }));
    expect(r.checkers.find((x) => x.checker === 'client-crashes')).toMatchObject({
      valid: 'unknown',
      summary: expect.stringContaining('2 client process(es) died without being asked; first: client2-8 (signal SIGABRT)'),
    });
    expect(r.deciding).toContain('client-crashes');
    expect(r.evidence.clients).toEqual({ crashes: 2, first: crash });
    // The sample run lost updates: a crash never hides an anomaly the checkers found (a valid run becomes unknown: client-command.test.ts).
    expect(clean.valid).toBe(false);
    expect(r.valid).toBe(false);
    expect(r.outcome).toBe('unsafe');
  });

  it('a damaged record is refused with 254', async () => {
    await expect(checkRunDir(runDir({ clientCrashes: [{ client: 'client1-1', exit: 6 }] }))).rejects.toMatchObject({
      exitCode: 254,
      message: expect.stringContaining('clientCrashes'),
    });
    await expect(checkRunDir(runDir({ clientToken: 'fencing' }))).rejects.toMatchObject({ exitCode: 254, message: expect.stringContaining('clientToken') });
    await expect(checkRunDir(runDir({ mainStartNs: -1 }))).rejects.toMatchObject({ exitCode: 254, message: expect.stringContaining('mainStartNs') });
    await expect(checkRunDir(runDir({ mainStartNs: 412_000_000 }))).resolves.toMatchObject({ test: { mainStartNs: 412_000_000 } });
    const e = await checkRunDir(runDir({ clientViolations: [{ client: 1 }] })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FencecheckError);
    expect((e as Error).message).toContain('clientViolations');
  });
});

describe('a clientToken with no client: test.json contradicts itself', () => {
  it('is refused with 254 naming clientToken, not judged as a foreign client', async () => {
    await expect(checkRunDir(runDir({ clientToken: 'unique' }))).rejects.toMatchObject({
      exitCode: 254,
      message: expect.stringContaining('`clientToken` does not fit the history'),
    });
  });
});
