/**
 * Test helper: the runner's side of the client protocol, small. Spawns
 * `node dist/runtime/clients/client-main.js` in a client host, waits for
 * its ready line, sends requests (accesses with their mode's statements, as
 * the runner sends them) and matches answers by id; keeps stderr for failure
 * messages.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ClientHost, ClientProcess } from '../../runtime/hosts/client-host.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import type { ClientAnswer, ClientConfig, ClientReady } from '../../core/client-protocol.js';
import { wireRequest, type SessionAccess } from '../../runtime/runner/client-session.js';
import type { RequestBody } from '../../runtime/runner/ports.js';

export const CLIENT_MAIN = 'dist/runtime/clients/client-main.js';

type Body = RequestBody;

export class ClientDriver {
  readonly ready: Promise<ClientReady>;
  readonly stderr: string[] = [];
  private readonly pending = new Map<number, (a: ClientAnswer) => void>();
  private nextId = 1;

  private constructor(
    readonly proc: ClientProcess,
    private readonly access: SessionAccess,
  ) {
    let onReady: (r: ClientReady) => void = () => undefined;
    this.ready = new Promise((resolve) => (onReady = resolve));
    createInterface({ input: proc.child.stdout! }).on('line', (line) => {
      let m: ClientReady | ClientAnswer;
      try {
        m = JSON.parse(line) as ClientReady | ClientAnswer;
      } catch {
        this.stderr.push(`[stdout, not JSON] ${line}`);
        return;
      }
      if ('ready' in m) onReady(m);
      else this.pending.get(m.id)?.(m);
    });
    createInterface({ input: proc.child.stderr! }).on('line', (line) => this.stderr.push(line));
    proc.child.stdin!.on('error', () => undefined);
  }

  /** Start a client process in `host` with `config`, from the built dist/ (run `npm run build` first). */
  static spawn(host: ClientHost, name: string, config: ClientConfig): ClientDriver {
    if (!existsSync(join(projectRoot(), CLIENT_MAIN))) throw new Error(`${CLIENT_MAIN} is missing: run \`npm run build\` before the integration tests`);
    const proc = host.spawn(['node', CLIENT_MAIN], { name, cwd: projectRoot(), env: { FC_CLIENT_CONFIG: JSON.stringify(config) } });
    return new ClientDriver(proc, { mode: config.resource, key: config.resourceKey });
  }

  /** One request; rejects (a test failure) when no answer comes within `timeoutMs`. */
  call(body: Body, timeoutMs = 10_000): Promise<ClientAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${JSON.stringify(body)} within ${timeoutMs} ms; client stderr:\n${this.stderr.slice(-20).join('\n')}`)),
        timeoutMs,
      );
      this.pending.set(id, (a) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(a);
      });
      // Accesses carry the statements of the client's configured mode, as the runner's do.
      this.proc.child.stdin!.write(`${JSON.stringify(wireRequest(body, id, this.access))}\n`);
    });
  }

  /** Ask it to stop and wait for its exit. */
  async shutdown(timeoutMs = 5000): Promise<number | null> {
    if (!this.proc.running()) return (await this.proc.exited).code;
    await this.call({ op: 'shutdown' }, timeoutMs).catch(() => undefined);
    const exit = await Promise.race([this.proc.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), timeoutMs))]);
    return exit ? exit.code : null;
  }
}
