/**
 * Each backend's error table: the errors its library really throws (by class
 * or by message), and whether each is a definite `fail` or an `info`.
 */
import { GRPCDeadlineExceededError, GRPCUnavailableError } from 'etcd3';
import { ReplyError } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { etcdOpError } from '../../runtime/clients/etcd-errors.js';
import { failed, type OpError } from '../../runtime/clients/op-error.js';
import { pgOpError } from '../../runtime/clients/pg-errors.js';
import { redisOpError } from '../../runtime/clients/redis-connection.js';
import { CallTimeoutError } from '../../runtime/clients/time.js';
import { deferred, ZK, ZkError, zkOpError } from '../../runtime/clients/zookeeper-session.js';

type Row = [string, () => unknown, 'fail' | 'info', string];

function check(map: (err: unknown) => OpError, rows: Row[]): void {
  it.each(rows)('%s', (_name, make, type, code) => {
    const e = map(make());
    expect({ type: e.type, code: e.code }).toEqual({ type, code });
  });
}

function dbError(code: string, message: string): pg.DatabaseError {
  const e = new pg.DatabaseError(message, message.length, 'error');
  e.code = code;
  return e;
}

describe('Redis (ioredis) errors', () => {
  check(redisOpError, [
    ['our call timeout: the command may have run', () => new CallTimeoutError('redis', 50), 'info', 'timeout'],
    ["ioredis's command timeout", () => new Error('Command timed out'), 'info', 'timeout'],
    [
      'refused while disconnected (no offline queue): never sent',
      () => new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      'fail',
      'not-connected',
    ],
    ['the server refused the command', () => new ReplyError('LOADING Redis is loading the dataset in memory'), 'fail', 'redis-error LOADING'],
    [
      'connection dropped with the command in flight',
      () => new Error('Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.'),
      'info',
      'connection-lost',
    ],
    ['connection closed', () => new Error('Connection is closed.'), 'info', 'connection-lost'],
    ['an OpError passes through', () => failed('held'), 'fail', 'held'],
  ]);
});

describe('etcd (etcd3, grpc-js) errors', () => {
  check(etcdOpError, [
    [
      'deadline before any connection was picked: never sent',
      () => new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded after 0.501s,Waiting for LB pick'),
      'fail',
      'not-connected',
    ],
    [
      'deadline after sending: may have committed',
      () => new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded after 0.500s,LB pick: 0.001s,remote_addr=10.77.0.31:2379'),
      'info',
      'timeout',
    ],
    [
      'no connection established: never sent',
      () => new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.77.0.31:2379'),
      'fail',
      'not-connected',
    ],
    ['circuit breaker open on every host: no call made', () => new Error('Execution prevented because the circuit breaker is open'), 'fail', 'not-connected'],
    ['the txn names a lease the server no longer has: nothing applied', () => new Error('etcdserver: requested lease not found'), 'fail', 'lease-not-found'],
    ['connection dropped mid-call', () => new GRPCUnavailableError('14 UNAVAILABLE: Connection dropped'), 'info', 'etcd-error'],
    ['leader changed while proposing', () => new Error('etcdserver: leader changed'), 'info', 'etcd-error'],
    ['our own timeout', () => new CallTimeoutError('etcd', 500), 'info', 'timeout'],
  ]);
});

describe('PostgreSQL (node-postgres) errors', () => {
  check(pgOpError, [
    [
      'statement_timeout: the server cancelled and rolled back',
      () => dbError('57014', 'canceling statement due to statement timeout'),
      'fail',
      'statement-timeout',
    ],
    ['any server error on an autocommit statement', () => dbError('40P01', 'deadlock detected'), 'fail', 'pg-40P01'],
    ['query_timeout: sent, may still commit', () => new Error('Query read timeout'), 'info', 'timeout'],
    ['connection lost in flight', () => new Error('Connection terminated unexpectedly'), 'info', 'connection-lost'],
    ['a broken client refuses to send', () => new Error('Client has encountered a connection error and is not queryable'), 'fail', 'not-connected'],
    ['a socket error', () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'info', 'connection-lost'],
  ]);
});

describe('ZooKeeper (native client) result codes', () => {
  check(zkOpError, [
    ['connection loss after sending', () => new ZkError(ZK.CONNECTIONLOSS, true, 'create'), 'info', 'connection-lost'],
    ['refused while not connected: never sent', () => new ZkError(ZK.CONNECTIONLOSS, false, 'create'), 'fail', 'not-connected'],
    ['closed handle: never sent', () => new ZkError(ZK.INVALIDSTATE, false, 'create'), 'fail', 'not-connected'],
    ['session expired: its ephemeral nodes are gone', () => new ZkError(ZK.SESSIONEXPIRED, true, 'create'), 'fail', 'session-expired'],
    ['operation timeout', () => new ZkError(ZK.OPERATIONTIMEOUT, true, 'create'), 'info', 'zk-operationtimeout'],
    ['closing with the request pending', () => new ZkError(ZK.CLOSING, true, 'delete'), 'info', 'zk-closing'],
    ['bad arguments: the server applied nothing', () => new ZkError(ZK.BADARGUMENTS, true, 'create'), 'fail', 'zk-badarguments'],
    ['our own timeout', () => new CallTimeoutError('zookeeper create', 500), 'info', 'timeout'],
    ['anything else', () => new Error('boom'), 'info', 'zk-error'],
  ]);
});

describe('deferred (the ZooKeeper addon callbacks)', () => {
  it('runs the callback on a later turn, never inside the call that invoked it, with its arguments and in order', async () => {
    const seen: string[] = [];
    const cb = deferred((rc: number, path: string) => seen.push(`${rc} ${path}`));
    // As the addon does from inside zookeeper_interest: a session event, then the failed completions.
    cb(ZK.CONNECTIONLOSS, '/a');
    cb(ZK.OK, '/b');
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['-4 /a', '0 /b']);
  });
});
