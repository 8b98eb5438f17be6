/**
 * Starting the lock client processes of a run: the built-in client
 * (`node dist/runtime/clients/client-main.js`) or a foreign one given as
 * `--client 'COMMAND ARGS'` (docs/client-protocol.md). Either is started in
 * its client's namespace with FC_CLIENT_CONFIG, paused, partitioned and killed
 * alike; this file is the one place that knows the difference.
 *
 * It also keeps what the clients did wrong: a client that is not ready in
 * time is a typed error naming its stderr tail (exit 254), and a protocol
 * violation during the run (garbage on stdout, an answer to nothing, an exit
 * in the middle) becomes a `client-protocol` verdict of `unknown`, so the run
 * cannot be called valid on the word of a client that broke the contract.
 */
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import { clientProtocolVerdict } from '../../core/analyse/client-verdict.js';
import type { ClientHost, ClientProcess } from '../hosts/client-host.js';
import { compiledEntry } from '../hosts/paths.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { parseClientCommand } from './client-command-line.js';
import type { ClientConfig, ClientReady } from '../../core/client-protocol.js';
import { clientModes, featureMissing, modeList, tokenKindExcludes } from '../../core/client-modes.js';
import { ClientSession, type ProcessControl, type SessionAccess } from './client-session.js';
import { processChannel } from './client-channel.js';
import { raceTimer, realClock, type Clock } from './clock.js';
import type { ProtocolViolation } from '../../core/client-protocol.js';
import type { ClientCrash } from '../../core/checkers/lock/evidence.js';

export interface ClientLauncherOptions {
  /** The foreign client's command line; undefined for the built-in client. */
  command?: string;
  access: SessionAccess;
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  /** The ready timeout's and the sessions' time (default: the real clock). */
  clock?: Clock;
}

export class ClientLauncher {
  readonly violations: ProtocolViolation[] = [];
  /** Client processes, built-in or foreign, that died without being asked (client-session.ts crashOf). */
  readonly crashes: ClientCrash[] = [];
  /** The first ready line's, for the checkers and test.json. */
  ready: ClientReady | undefined;
  private readonly argv: string[];

  constructor(private readonly o: ClientLauncherOptions) {
    this.argv = o.command !== undefined ? parseClientCommand(o.command) : [process.execPath, compiledEntry('../runtime/clients/client-main.js')];
  }

  get foreign(): boolean {
    return this.o.command !== undefined;
  }

  /** The built-in client's command line, which a spare is started with; undefined for a foreign client (it has no spare mode). */
  get spareArgv(): readonly string[] | undefined {
    return this.foreign ? undefined : this.argv;
  }

  /**
   * Start one client and wait for its ready line. A typed error (exit 254) with
   * its stderr tail when it is not ready in time, breaks the protocol first,
   * or (a foreign client) announces tokens the run's resource mode cannot use.
   */
  async start(
    host: ClientHost,
    name: string,
    config: ClientConfig,
    logPath: string,
    control: (proc: ClientProcess) => ProcessControl,
    spare?: ClientProcess,
  ): Promise<ClientSession> {
    // A spare (runtime/hosts/spare-clients.ts) has loaded its code and waits for its configuration on stdin.
    if (spare) spare.child.stdin?.write(`${JSON.stringify(config)}\n`);
    const proc = spare ?? host.spawn(this.argv, { name, env: { FC_CLIENT_CONFIG: JSON.stringify(config) }, cwd: process.cwd() });
    const clock = this.o.clock ?? realClock;
    const session = new ClientSession(
      processChannel(proc, logPath),
      control(proc),
      this.o.access,
      {
        onViolation: (v) => {
          this.violations.push(v);
          this.o.log?.(`client ${v.client} broke the protocol: ${v.problem}`);
        },
        onCrash: (c) => {
          this.crashes.push(c);
          this.o.log?.(`client ${c.client} crashed (${c.exit}): see its log`);
        },
      },
      clock,
    );
    const ms = this.o.readyTimeoutMs ?? readyTimeoutMs(process.env['FC_CLIENT_READY_TIMEOUT_MS']);
    try {
      const ready = await raceTimer(clock, session.ready, ms, () => undefined);
      if (!ready) throw session.error('client-not-ready', `lock client ${name} (${this.argv.join(' ')}) printed no ready line within ${ms / 1000} s`);
      // A wrapper that exec'd its program (a script running `exec java …`) is known by that program from now on, so pauses and kills reach it.
      proc.reidentify();
      this.assertApplicable(ready);
      this.ready ??= ready;
      return session;
    } catch (err) {
      session.close();
      await proc.stop().catch(() => undefined);
      throw err;
    }
  }

  /**
   * A foreign client's token kind and features are known only from its ready
   * line: refuse a resource mode it cannot serve (core/client-modes.ts: fences
   * need monotonic tokens, the cas modes a token at all, version and
   * for-update the `transactions` feature), naming the modes it can serve.
   * `access.mode` is the run's mode (client-check's is `none`).
   */
  private assertApplicable(ready: ClientReady): void {
    if (!this.foreign) return;
    const modes = modeList(clientModes(ready));
    const why = tokenKindExcludes(ready, this.o.access.mode);
    if (why)
      throw new ClientNotApplicableError(
        `Cannot run this combination: the client ${this.o.command} ${why}.`,
        `Pick a resource mode its tokens can serve: ${modes} (\`fencecheck client-check\` lists them).`,
      );
    const missing = featureMissing(ready, this.o.access.mode);
    if (missing) {
      throw new ClientNotApplicableError(
        `Cannot run this combination: the client ${this.o.command} ${missing}.`,
        `Serve the transactions feature (docs/client-protocol.md, "Transactions"; the Python and Node protocol helpers do), or pick a mode this client serves: ${modes}.`,
      );
    }
  }

  /** An `unknown` verdict when a client broke the protocol, else undefined. */
  verdict(): CheckerVerdict | undefined {
    return clientProtocolVerdict(this.violations);
  }
}

/**
 * A foreign client whose ready line announces a token kind the run's resource mode cannot use. Bad input
 * (exit 254) for that one run, but not the usage error that stops a batch: a scenario or a comparison
 * with this client marks that run so and goes on with the others (src/batch/batch-runner.ts).
 */
export class ClientNotApplicableError extends FencecheckError {
  constructor(message: string, hint = 'Pick a resource mode the client can serve (`fencecheck client-check` lists them).') {
    super('client-not-applicable', message, { hint, exitCode: EXIT.badInput });
  }
}

/** How long a client may take to print its ready line: 30 s, or FC_CLIENT_READY_TIMEOUT_MS (tests shorten it). */
export function readyTimeoutMs(env: string | undefined): number {
  const n = Number(env);
  return env !== undefined && Number.isFinite(n) && n > 0 ? n : 30_000;
}
