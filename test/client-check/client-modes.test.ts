/**
 * The resource modes a foreign client serves come from one function of what
 * its ready line announces (token kind and features), and every place that
 * speaks of them agrees with it: client-check's listing, the launcher's
 * refusals of a run (exit 254) and the "(use …)" each refusal suggests.
 * The launcher is driven over fake pipes, as the runner meets a client.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ClientFeature, ClientTokenKind } from '../../core/client-protocol.js';
import type { ClientProcess } from '../../runtime/hosts/client-host.js';
import type { ClientHost } from '../../runtime/hosts/client-host.js';
import { ClientLauncher } from '../../runtime/runner/client-command.js';
import { RESOURCE_MODES, type ResourceMode } from '../../core/vocabulary.js';
import { madeTempDir } from '../support/temp-dirs.js';

const control = () => ({ pause: async () => undefined, resume: async () => undefined, kill: async () => undefined });

/** A client host whose one "process" prints `ready` on its stdout at once. */
function hostPrinting(ready: object): ClientHost {
  return {
    spawn: () => {
      const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
      const exited = new Promise(() => undefined);
      setImmediate(() => stdout.write(`${JSON.stringify(ready)}\n`));
      const stop = async () => void stderr.end();
      return { name: 'client1-1', host: 'c1', pid: 1, child: { stdin, stdout, stderr }, exited, stop, reidentify: () => 'fake' } as unknown as ClientProcess;
    },
  } as unknown as ClientHost;
}

/** What the launcher answers a client with this ready line for a run of `mode`: accepted, or the refusal's message and hint. */
async function launch(
  token: ClientTokenKind,
  features: ClientFeature[] | undefined,
  mode: ResourceMode,
): Promise<{ ok: true } | { ok: false; message: string; hint: string }> {
  const ready = { ready: true, protocol: 1, token, versions: {}, ...(features ? { features } : {}) };
  const launcher = new ClientLauncher({ command: 'my-client', access: { mode, key: 'counter' }, readyTimeoutMs: 5000 });
  const dir = madeTempDir('fc-modes-');
  try {
    const s = await launcher.start(hostPrinting(ready), 'client1-1', {} as never, join(dir, 'client.log'), control);
    s.close();
    return { ok: true };
  } catch (err) {
    const e = err as { message: string; hint?: string };
    return { ok: false, message: e.message, hint: e.hint ?? '' };
  }
}

/** The modes a "(use a, b or c)" names. */
function suggested(text: string): string[] {
  const m = /\(use ([^)]*)\)/.exec(text);
  return m ? m[1]!.split(/, | or /) : [];
}

const ANNOUNCED: [ClientTokenKind, ClientFeature[] | undefined][] = [
  ['monotonic', undefined],
  ['monotonic', ['transactions']],
  ['unique', undefined],
  ['unique', ['transactions']],
  ['none', undefined],
  ['none', ['transactions']],
];

describe('the modes a client serves', () => {
  it.each(ANNOUNCED)('token %s, features %j: the launcher accepts exactly the modes each refusal suggests', async (token, features) => {
    const answers = await Promise.all(RESOURCE_MODES.map(async (m) => [m, await launch(token, features, m)] as const));
    const accepted = answers.filter(([, a]) => a.ok).map(([m]) => m);
    expect(accepted).toContain('none');
    for (const [mode, a] of answers) {
      if (a.ok) continue;
      expect(a.message, `${mode}: its refusal names the modes this client can use`).toMatch(/\(use /);
      expect(suggested(a.message), `${mode}: the refusal's (use …) is the modes the launcher accepts`).toEqual(accepted);
    }
  });

  it.each(ANNOUNCED)('token %s, features %j: client-check lists the modes the launcher accepts', async (token, features) => {
    const { clientModes } = await import('../../core/client-modes.js');
    const answers = await Promise.all(RESOURCE_MODES.map(async (m) => [m, await launch(token, features, m)] as const));
    expect(clientModes({ token, features })).toEqual(answers.filter(([, a]) => a.ok).map(([m]) => m));
  });

  it('version and for-update need transactions whatever the token; a none client without it serves none alone', async () => {
    const { clientModes } = await import('../../core/client-modes.js');
    expect(clientModes({ token: 'none' })).toEqual(['none']);
    expect(clientModes({ token: 'none', features: ['transactions'] })).toEqual(['none', 'version', 'for-update']);
    expect(clientModes({ token: 'unique' })).toEqual(['none', 'cas-unique', 'cas-unique-nonatomic']);
    expect(clientModes({ token: 'monotonic', features: ['transactions'] })).toEqual([...RESOURCE_MODES]);
  });
});
