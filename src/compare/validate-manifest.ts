/**
 * A compare directory's manifest.json as read back (by --resume and by
 * --merge, whose inputs come from other machines and CI artifacts): every
 * field the code reads is checked for its type before it is believed, and
 * every path in it must stay inside the compare directory, so a manifest
 * edited or crafted to say `"runDir": "../../../../etc"` is refused (254)
 * rather than read.
 */
import { isAbsolute, normalize, sep } from 'node:path';
import { CLIENT_TOKEN_KINDS } from '../../core/client-protocol.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import { LOCK_BACKENDS, RESOURCE_MODES } from '../../core/vocabulary.js';
import { parseNemesisLabel, runId } from './compare-spec.js';
import type { Manifest, ManifestRun } from './manifest-types.js';

type Json = Record<string, unknown>;

/** The first problem of a decoded manifest as "expected ...", or null when it is a Manifest. */
export function manifestProblem(json: unknown, format: string): string | null {
  if (!isObject(json) || json['format'] !== format) return `expected \`format\` to be "${format}"`;
  const spec = json['spec'];
  if (!isObject(spec)) return 'expected a `spec` with backends, resources, nemeses and seeds';
  for (const axis of ['backends', 'resources', 'nemeses'] as const) {
    if (!isStringList(spec[axis])) return `expected \`spec.${axis}\` to be a list of names`;
  }
  const unknownBackend = (spec['backends'] as string[]).find((b) => !isOneOf(b, LOCK_BACKENDS));
  if (unknownBackend !== undefined) return `expected \`spec.backends\` to name backends among ${LOCK_BACKENDS.join(', ')}, got ${show(unknownBackend)}`;
  const unknownResource = (spec['resources'] as string[]).find((r) => !isOneOf(r, RESOURCE_MODES));
  if (unknownResource !== undefined)
    return `expected \`spec.resources\` to name resource modes among ${RESOURCE_MODES.join(', ')}, got ${show(unknownResource)}`;
  for (const label of spec['nemeses'] as string[]) {
    try {
      parseNemesisLabel(label);
    } catch {
      return `expected \`spec.nemeses\` to hold nemesis columns such as "client-pause" or "partition+kill", got ${show(label)}`;
    }
  }
  if ('clients' in spec) {
    const problem = clientsProblem(spec['clients']);
    if (problem !== null) return problem;
  }
  const seeds = spec['seeds'];
  if (!Array.isArray(seeds) || !seeds.every((s) => Number.isSafeInteger(s) && (s as number) >= 0))
    return 'expected `spec.seeds` to be a list of non-negative integers';
  if (typeof spec['workload'] !== 'string') return 'expected `spec.workload` to be a workload name';
  const run = spec['run'];
  if (!isObject(run)) return 'expected `spec.run` to hold the run options';
  for (const [key, value] of Object.entries(DEFAULTS)) {
    if (key in run && typeof run[key] !== typeof value) return `expected \`spec.run.${key}\` to be a ${typeof value}, got ${show(run[key])}`;
  }
  const shard = json['shard'];
  if (shard !== null && !(isObject(shard) && isCount(shard['index']) && isCount(shard['count']))) return 'expected `shard` to be null or { index, count }';
  const runs = json['runs'];
  if (!Array.isArray(runs)) return 'expected `runs` to be an array';
  for (let i = 0; i < runs.length; i++) {
    const problem = runProblem(runs[i]);
    if (problem !== null) return `expected \`runs[${i}]\`${problem}`;
  }
  return null;
}

/** `spec.clients` (--lock-clients): each a name, its command line (null: built-in), its backends and token kind (null: any / unknown). */
function clientsProblem(clients: unknown): string | null {
  if (!Array.isArray(clients) || clients.length === 0) return 'expected `spec.clients` to be a non-empty list of clients';
  for (let i = 0; i < clients.length; i++) {
    const c: unknown = clients[i];
    const at = `\`spec.clients[${i}]\``;
    if (!isObject(c) || typeof c['name'] !== 'string' || /[/@]/.test(c['name'])) return `expected ${at} to have a \`name\` without / or @`;
    if (c['command'] !== null && typeof c['command'] !== 'string') return `expected ${at}.command to be a command line or null, got ${show(c['command'])}`;
    if (c['backends'] !== null && !isStringList(c['backends'])) return `expected ${at}.backends to be a list of backends or null, got ${show(c['backends'])}`;
    if (c['token'] !== null && !(CLIENT_TOKEN_KINDS as readonly unknown[]).includes(c['token']))
      return `expected ${at}.token to be one of ${CLIENT_TOKEN_KINDS.join(', ')} or null, got ${show(c['token'])}`;
  }
  return null;
}

/** Narrowed by manifestProblem: a Manifest once it returned null. */
export function asManifest(json: unknown): Manifest {
  return json as Manifest;
}

function runProblem(run: unknown): string | null {
  if (!isObject(run)) return ' to be an object';
  const r = run as Partial<Record<keyof ManifestRun, unknown>>;
  for (const key of ['id', 'cellId', 'log', 'finishedAt'] as const) if (typeof r[key] !== 'string') return `.${key} to be a string, got ${show(r[key])}`;
  if (!Number.isSafeInteger(r.seed)) return `.seed to be an integer, got ${show(r.seed)}`;
  const cellProblem = cellIdProblem(r.cellId as string);
  if (cellProblem !== null) return `.cellId to be LOCK/RESOURCE/NEMESIS (${cellProblem}), got ${show(r.cellId)}`;
  if (r.id !== runId(r.cellId as string, r.seed as number))
    return `.id to be its cellId#seed, ${show(runId(r.cellId as string, r.seed as number))}, got ${show(r.id)}`;
  if (!Number.isSafeInteger(r.index) || (r.index as number) < 0) return `.index to be a non-negative integer, got ${show(r.index)}`;
  if (r.status !== 'done' && r.status !== 'error') return `.status to be "done" or "error", got ${show(r.status)}`;
  if (!(r.valid === null || r.valid === true || r.valid === false || r.valid === 'unknown'))
    return `.valid to be true, false, "unknown" or null, got ${show(r.valid)}`;
  if (r.runDir !== null && typeof r.runDir !== 'string') return `.runDir to be a path or null, got ${show(r.runDir)}`;
  if (typeof r.durationMs !== 'number' || !Number.isFinite(r.durationMs)) return `.durationMs to be a number, got ${show(r.durationMs)}`;
  if (r.error !== null && typeof r.error !== 'string') return `.error to be a string or null, got ${show(r.error)}`;
  for (const key of ['runDir', 'log'] as const) {
    const path = r[key];
    if (typeof path === 'string' && !staysInside(path)) return `.${key} to be a path inside the compare directory, got ${show(path)}`;
  }
  return null;
}

/** Why a run's cell id cannot be one of a matrix's cells (a lock row, a resource mode, a nemesis column), or null. */
function cellIdProblem(id: string): string | null {
  const parts = id.split('/');
  if (parts.length !== 3) return 'three parts joined by /';
  const [label, resource, nemesis] = parts as [string, string, string];
  const backend = label.slice(label.lastIndexOf('@') + 1);
  if (!isOneOf(backend, LOCK_BACKENDS)) return `a backend among ${LOCK_BACKENDS.join(', ')}, or client@backend`;
  if (!isOneOf(resource, RESOURCE_MODES)) return `a resource mode among ${RESOURCE_MODES.join(', ')}`;
  try {
    parseNemesisLabel(nemesis);
  } catch {
    return 'a nemesis column such as "client-pause" or "partition+kill"';
  }
  return null;
}

function isOneOf(x: string, names: readonly string[]): boolean {
  return names.includes(x);
}

/** A relative path that does not climb out of the directory it is relative to. */
export function staysInside(path: string): boolean {
  if (path === '' || isAbsolute(path) || path.includes('\0')) return false;
  const n = normalize(path);
  return n !== '..' && !n.startsWith(`..${sep}`);
}

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isStringList(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

function isCount(x: unknown): boolean {
  return Number.isSafeInteger(x) && (x as number) >= 1;
}

function show(x: unknown): string {
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
