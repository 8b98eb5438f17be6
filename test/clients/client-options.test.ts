/**
 * The small pure parts of the clients: configuration checks, endpoints,
 * tokens, lease and retry arithmetic, the ZooKeeper queue order.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { parseClientConfig } from '../../runtime/clients/client-config.js';
import { leaseSeconds } from '../../runtime/clients/etcd-client.js';
import { parseEndpoint, tokenFromDecimal } from '../../runtime/clients/lock-client.js';
import { redlockNpmSettings } from '../../runtime/clients/redlock-npm-client.js';
import { statementTimeoutMs } from '../../runtime/clients/resource.js';
import { retryDelayMs } from '../../runtime/clients/time.js';
import { lockQueue } from '../../runtime/clients/zookeeper-client.js';

const GOOD = {
  client: 0,
  backend: 'etcd',
  lockEndpoints: ['10.77.0.31:2379', '10.77.0.32:2379', '10.77.0.33:2379'],
  lockName: 'fc-lock',
  resource: 'fence',
  pg: { host: '10.77.0.51', port: 5432, user: 'postgres', database: 'postgres' },
  resourceKey: 'k',
  callTimeoutMs: 500,
};

describe('parseClientConfig', () => {
  it('accepts a full configuration', () => {
    expect(parseClientConfig(JSON.stringify(GOOD))).toEqual(GOOD);
    expect(parseClientConfig(JSON.stringify({ ...GOOD, sessionTimeoutMs: 4000 })).sessionTimeoutMs).toBe(4000);
  });

  it.each<[string, string | undefined, string]>([
    ['missing', undefined, 'Expected the FC_CLIENT_CONFIG environment variable to hold the client configuration (JSON), got nothing'],
    ['not JSON', '{', 'Expected FC_CLIENT_CONFIG to be JSON'],
    [
      'unknown backend',
      JSON.stringify({ ...GOOD, backend: 'consul' }),
      'Expected `backend` in FC_CLIENT_CONFIG to be one of redis, redlock, redlock-npm, etcd, zookeeper, redis-sentinel, pg-advisory, pg-advisory-pooled, memcached, none, got `"consul"`',
    ],
    [
      'bad endpoint',
      JSON.stringify({ ...GOOD, lockEndpoints: ['10.77.0.31'] }),
      'Expected `lockEndpoints` in FC_CLIENT_CONFIG to be a list of host:port strings, got `["10.77.0.31"]`',
    ],
    ['zero timeout', JSON.stringify({ ...GOOD, callTimeoutMs: 0 }), 'Expected `callTimeoutMs` in FC_CLIENT_CONFIG to be a positive number, got `0`'],
  ])('rejects %s with a UsageError saying what it expected', (_name, text, message) => {
    expect(() => parseClientConfig(text)).toThrow(UsageError);
    expect(() => parseClientConfig(text)).toThrow(message);
  });
});

describe('small arithmetic', () => {
  it('endpoints', () => {
    expect(parseEndpoint('10.77.0.11:6379')).toEqual({ host: '10.77.0.11', port: 6379 });
    expect(() => parseEndpoint('10.77.0.11')).toThrow(RangeError);
  });

  it('tokens from decimal text: a number when exact, else the string', () => {
    expect(tokenFromDecimal('42')).toBe(42);
    expect(tokenFromDecimal('9007199254740993')).toBe('9007199254740993');
  });

  it('etcd lease seconds: rounded up, at least 1', () => {
    expect([1, 999, 1000, 1001, 2500].map(leaseSeconds)).toEqual([1, 1, 1, 2, 3]);
  });

  it('PostgreSQL statement_timeout is 80 % of the call timeout, so the server cancels first', () => {
    expect(statementTimeoutMs(500)).toBe(400);
    expect(statementTimeoutMs(1)).toBe(1);
  });

  it('retry delays: a tenth of the call timeout (5–50 ms) times [0.5, 1.5)', () => {
    expect(retryDelayMs(300, () => 0)).toBe(15);
    expect(retryDelayMs(300, () => 0.999)).toBeCloseTo(44.97);
    expect(retryDelayMs(10_000, () => 0.5)).toBe(50);
    expect(retryDelayMs(10, () => 0.5)).toBe(5);
  });

  it('npm redlock retries spread over one call timeout', () => {
    expect(redlockNpmSettings(500)).toEqual({ driftFactor: 0.01, retryCount: 5, retryDelay: 100, retryJitter: 50 });
    expect(redlockNpmSettings(20)).toEqual({ driftFactor: 0.01, retryCount: 2, retryDelay: 10, retryJitter: 5 });
  });

  it('ZooKeeper lock nodes queue by their sequence suffix, whatever their random part', () => {
    expect(lockQueue(['lock-ff01-0000000012', 'other', 'lock-0a3b-0000000003', 'lock-9999-0000000010'])).toEqual([
      'lock-0a3b-0000000003',
      'lock-9999-0000000010',
      'lock-ff01-0000000012',
    ]);
  });
});

describe('parseClientConfig: redis-sentinel', () => {
  it('takes a WAIT replica count, and refuses a negative or fractional one', () => {
    const good: Record<string, unknown> = { ...GOOD };
    expect(parseClientConfig(JSON.stringify({ ...good, backend: 'redis-sentinel', waitReplicas: 1 })).waitReplicas).toBe(1);
    for (const bad of [-1, 0.5, '1']) {
      expect(() => parseClientConfig(JSON.stringify({ ...good, backend: 'redis-sentinel', waitReplicas: bad }))).toThrow(
        'Expected `waitReplicas` in FC_CLIENT_CONFIG to be a non-negative integer',
      );
    }
  });
});
