/**
 * The client's configuration, read from FC_CLIENT_CONFIG (JSON, see
 * protocol.ts) and checked, so that a runner bug shows as one clear message
 * on the client's stderr instead of as odd answers later.
 */
import { UsageError } from '../../core/errors.js';
import { type ClientConfig } from '../../core/client-protocol.js';
import { LOCK_BACKENDS, RESOURCE_MODES } from '../../core/vocabulary.js';

const HINT = 'The runner sets FC_CLIENT_CONFIG; its shape is ClientConfig in core/client-protocol.ts.';

function expect(ok: boolean, field: string, what: string, got: unknown): void {
  if (!ok) throw new UsageError(`Expected \`${field}\` in FC_CLIENT_CONFIG to be ${what}, got \`${JSON.stringify(got) ?? 'nothing'}\``, HINT);
}

const isPositive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
const isEndpoint = (v: unknown): boolean => typeof v === 'string' && /^[^\s:]+:\d{1,5}$/.test(v);

export function parseClientConfig(text: string | undefined): ClientConfig {
  if (text === undefined || text.trim() === '')
    throw new UsageError('Expected the FC_CLIENT_CONFIG environment variable to hold the client configuration (JSON), got nothing', HINT);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`Expected FC_CLIENT_CONFIG to be JSON: ${(err as Error).message}`, HINT);
  }
  const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  expect(Number.isInteger(c['client']) && (c['client'] as number) >= 0, 'client', 'a worker index (a non-negative integer)', c['client']);
  expect(LOCK_BACKENDS.includes(c['backend'] as never), 'backend', `one of ${LOCK_BACKENDS.join(', ')}`, c['backend']);
  // Without a lock service (backend none) the list is empty.
  const endpoints = c['lockEndpoints'];
  expect(
    Array.isArray(endpoints) && (endpoints.length > 0 || c['backend'] === 'none') && endpoints.every(isEndpoint),
    'lockEndpoints',
    'a list of host:port strings',
    endpoints,
  );
  expect(typeof c['lockName'] === 'string' && c['lockName'] !== '', 'lockName', 'a non-empty string', c['lockName']);
  expect(RESOURCE_MODES.includes(c['resource'] as never), 'resource', `one of ${RESOURCE_MODES.join(', ')}`, c['resource']);
  const pg = (c['pg'] ?? {}) as Record<string, unknown>;
  expect(
    typeof pg['host'] === 'string' && Number.isInteger(pg['port']) && typeof pg['user'] === 'string' && typeof pg['database'] === 'string',
    'pg',
    '{ host, port, user, database }',
    c['pg'],
  );
  expect(typeof c['resourceKey'] === 'string' && c['resourceKey'] !== '', 'resourceKey', 'a non-empty string', c['resourceKey']);
  expect(isPositive(c['callTimeoutMs']), 'callTimeoutMs', 'a positive number', c['callTimeoutMs']);
  expect(c['sessionTimeoutMs'] === undefined || isPositive(c['sessionTimeoutMs']), 'sessionTimeoutMs', 'a positive number', c['sessionTimeoutMs']);
  expect(c['checkHold'] === undefined || typeof c['checkHold'] === 'boolean', 'checkHold', 'true or false', c['checkHold']);
  expect(
    c['waitReplicas'] === undefined || (Number.isInteger(c['waitReplicas']) && (c['waitReplicas'] as number) >= 0),
    'waitReplicas',
    'a non-negative integer',
    c['waitReplicas'],
  );
  return c as unknown as ClientConfig;
}
