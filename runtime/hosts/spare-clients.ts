/**
 * Spare lock clients: on a warm cluster, the next run's built-in client
 * processes are started while this run waits for recovery, so the next run
 * does not wait for three Node processes to load their libraries on two
 * busy cores (most of each warm run's overhead: README, Benchmarks).
 *
 * A spare is a fresh process that has only loaded code: it connects to
 * nothing and has no configuration until a run takes it and sends one
 * (client-main.ts, FC_CLIENT_SPARE), so every run's clients are still new
 * processes that served no earlier run. The warm reset leaves spares
 * running and the clean check does not count them (`holds`); one that died
 * meanwhile is not taken, and the run starts that client as usual.
 */
import type { ClientHost, ClientProcess } from './client-host.js';

export class SpareClients {
  private readonly spares = new Map<string, ClientProcess>();
  private counter = 0;

  /** Start a spare for one worker on its host, unless one is already waiting. */
  prestart(host: ClientHost, worker: number, argv: readonly string[], backend: string, cwd: string): void {
    const key = keyOf(host.name, worker);
    const waiting = this.spares.get(key);
    if (waiting?.running()) return;
    const name = `spare${worker + 1}-${++this.counter}`;
    this.spares.set(key, host.spawn(argv, { name, env: { FC_CLIENT_SPARE: backend }, cwd }));
  }

  /** The spare waiting for this worker on this host, handed over (undefined: none, or it died). */
  take(host: string, worker: number): ClientProcess | undefined {
    const key = keyOf(host, worker);
    const spare = this.spares.get(key);
    this.spares.delete(key);
    return spare?.running() ? spare : undefined;
  }

  /** Whether a process is a spare still waiting (the warm reset and its clean check leave those alone). */
  holds(proc: ClientProcess): boolean {
    return [...this.spares.values()].some((s) => s.pid === proc.pid && s.identity.startTime === proc.identity.startTime);
  }

  /** The spares not taken: stopped (a run that needs fewer clients, or none to come). */
  async stopAll(): Promise<void> {
    const left = [...this.spares.values()];
    this.spares.clear();
    await Promise.all(left.filter((p) => p.running()).map((p) => p.stop()));
  }
}

const keyOf = (host: string, worker: number): string => `${host}#${worker}`;
