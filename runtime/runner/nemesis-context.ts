/**
 * What the nemesis runner hands each fault module (the live cluster's ports, the
 * recorder, the holders, the timing): its own file, so that the fault modules
 * (./faults/) and the runner that imports them do not import each other.
 */
import type { Renewal } from './await-trigger.js';
import type { Holders } from './holders.js';
import type { LockSession, NemesisPort } from './ports.js';
import type { Recorder } from './recorder.js';

export interface NemesisRunnerContext {
  nemesis: NemesisPort;
  recorder: Recorder;
  holders: Holders;
  /** The lock service's nodes. */
  lockNodes: readonly string[];
  resourceNode: string;
  /** A worker's current client (scripted faults aimed at one worker). */
  sessionOf: (worker: number) => LockSession | undefined;
  /** Whether the clients renew their leases, and how often (the `renew` trigger). */
  renewal?: Renewal;
  /** How long a fault aimed at the holder or an acquirer waits for one (bounded: the window goes on meanwhile). */
  victimWaitMs: number;
  /** Time of the main phase's start, in recorder ns. */
  startNs: number;
  /** The main phase's end, in recorder ns: no trigger waits past it. */
  mainEndNs: number;
  sleepUntilNs: (ns: number) => Promise<void>;
  stopped: () => boolean;
  log: (line: string) => void;
}
