/**
 * Models by name, for the CLI and for workloads: `register`, `cas-register`,
 * `etcd`, `kv`, `mutex`. Defaults are filled in here, in one place.
 */
import type { Value } from '../../history/op.js';
import type { Model } from '../model.js';
import { casRegisterModel } from './cas-register.js';
import { etcdModel } from './etcd.js';
import { kvModel } from './kv.js';
import { mutexModel } from './mutex.js';
import { registerModel } from './register.js';

export const MODEL_NAMES = ['register', 'cas-register', 'etcd', 'kv', 'mutex'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export interface ModelOptions {
  /** The initial value, for models that have one (register, cas-register, etcd). */
  init?: Value;
  /** kv only: false keeps one state for all keys (stress the search). */
  partition?: boolean;
}

export function isModelName(name: string): name is ModelName {
  return (MODEL_NAMES as readonly string[]).includes(name);
}

/** Whether the model has an initial value that `--init` may set. */
export function modelTakesInit(name: ModelName): boolean {
  return name === 'register' || name === 'cas-register' || name === 'etcd';
}

export function createModel(name: ModelName, opts: ModelOptions = {}): Model<unknown> {
  const init = opts.init ?? null;
  switch (name) {
    case 'register':
      return registerModel(init) as Model<unknown>;
    case 'cas-register':
      return casRegisterModel(init) as Model<unknown>;
    case 'etcd':
      return etcdModel(init) as Model<unknown>;
    case 'kv':
      return (opts.partition === false ? kvModel({ partition: false }) : kvModel()) as unknown as Model<unknown>;
    case 'mutex':
      return mutexModel() as Model<unknown>;
  }
}
