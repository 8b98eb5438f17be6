/**
 * The small interfaces the run interpreter (interpret-run.ts) acts through.
 * Production implements them over a real cluster (real-world.ts): client
 * processes in namespaces, nftables, SIGSTOP. The simulation (test/sim)
 * implements them over a virtual world that knows the truth. The runner's
 * own code (workers, critical sections, the nemesis runner, the final read)
 * is the same in both.
 */
import type { Grudge } from '../../core/generator/grudge.js';
import type { Value } from '../../core/history/op.js';
import type { ClientAnswer, ClientReady } from '../../core/client-protocol.js';
import type { EvictPolicy } from '../../core/generator/eviction.js';
import type { PressureStarted, PressureSummary } from '../nemesis/redis-pressure.js';

/** A request as the runner asks for it: no id, and accesses without their statements (the session adds them, client-session.ts). */
export type RequestBody =
  | { op: 'acquire'; ttlMs: number }
  | { op: 'release' }
  | { op: 'read' }
  /** `readVersion`: the version the section's read returned (mode version), put into the write's statement. */
  | { op: 'write'; value: Value; readVersion?: number }
  | { op: 'mark' }
  | { op: 'final-read' }
  | { op: 'shutdown' };

/** One lock client process as the runner drives it: requests in, answers out, and the process faults that hit it. */
export interface LockSession {
  /** `client3-7`: the process's name in logs. */
  readonly name: string;
  /** The client host (namespace) it runs in. */
  readonly host: string;
  readonly pid: number;
  readonly alive: boolean;
  readonly ready: Promise<ClientReady>;
  /** Send one request and wait for its answer; `info gave-up` after `giveUpMs`, `info client-exited` if it dies. */
  call(body: RequestBody, giveUpMs: number): Promise<ClientAnswer>;
  /** SIGSTOP / SIGCONT / kill -9 of this process. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
  /** End its input (it exits by itself). */
  close(): void;
}

/** Starts client processes, one per worker at a time. */
export interface ClientFleet {
  /** A fresh client for worker `worker` (the final reader is worker `clients`), ready to take requests. */
  spawn(worker: number): Promise<LockSession>;
  /**
   * Start the next run's clients now, where a next run on this cluster is
   * coming (a warm cluster): called once every fault is healed, so their
   * start overlaps the last sections and the recovery. Fresh processes that
   * only load their code; the next run's `spawn` hands each its configuration.
   */
  prestartNext?(): void;
}

/** A delay proxy on one link, as a scripted `delay` fault sets it. */
export interface DelayLink {
  setDelay(ms: number): Promise<void>;
}

/** Faults on the servers and the network, by host name. */
export interface NemesisPort {
  pause(node: string): Promise<void>;
  resume(node: string): Promise<void>;
  kill(node: string): Promise<void>;
  restart(node: string): Promise<void>;
  clockOffset(node: string, ms: number): Promise<void>;
  loss(node: string, others: readonly string[], percent: number): Promise<void>;
  partition(grudge: Grudge): Promise<void>;
  /** Memory pressure on a cache node until it evicts (resolves then); each evicted lock-service key is told as it goes. */
  evict(node: string, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void): Promise<PressureStarted>;
  /** Pressure off, settings restored: what the window evicted. */
  stopEvict(node: string): Promise<PressureSummary>;
  /**
   * End the lock server's sessions that hold the lock (the session-end fault):
   * the node it ran on and the sessions ended (none: nobody held it then).
   */
  endLockSessions(): Promise<{ node: string; pids: number[] }>;
  heal(): Promise<void>;
  /** Heal the network, resume every paused process (clients too), clocks back, delays off. */
  healAll(): Promise<void>;
  /** The lock service's leader now, when it has one. */
  leader(): Promise<string | undefined>;
  /** The client hosts' names. */
  clientHosts(): string[];
  /** A client host's delay proxies by server node (empty without proxies). */
  delayLinks(host: string): ReadonlyMap<string, DelayLink>;
}
