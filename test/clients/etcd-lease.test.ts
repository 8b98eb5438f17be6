/**
 * followLease on a fake clock and a fake lease: how long the etcd client
 * believes its lease alive, from etcd3's keep-alive events.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Lease } from 'etcd3';
import { followLease } from '../../runtime/clients/etcd-client.js';

function fakeLease(): { lease: Pick<Lease, 'on'>; emit: (event: string, ...args: unknown[]) => void; at: (t: number) => void; now: () => number } {
  const e = new EventEmitter();
  let t = 0;
  return { lease: e as unknown as Pick<Lease, 'on'>, emit: (ev, ...a) => e.emit(ev, ...a), at: (x) => (t = x), now: () => t };
}

describe('followLease', () => {
  it('starts from the grant request: alive until it was sent + the TTL', () => {
    const f = fakeLease();
    expect(followLease(f.lease, 100, 2000, f.now).validUntil).toBe(2100);
  });

  it('each answer extends the life from when its keep-alive was sent, with the TTL it renewed', () => {
    const f = fakeLease();
    const life = followLease(f.lease, 0, 2000, f.now);
    f.emit('keepaliveEstablished');
    f.at(600);
    f.emit('keepaliveFired');
    f.at(650);
    f.emit('keepaliveSucceeded', { TTL: '2' });
    expect(life.validUntil).toBe(2600);
  });

  it('a paused client that reads an old answer after waking gains nothing beyond what it proves', () => {
    const f = fakeLease();
    const life = followLease(f.lease, 0, 2000, f.now);
    f.emit('keepaliveEstablished');
    f.at(600);
    f.emit('keepaliveFired'); // answered by etcd at once, but the client is stopped before it reads it
    f.at(4100); // woken: the interval timer fires first, then the old answer is read
    f.emit('keepaliveFired');
    f.emit('keepaliveSucceeded', { TTL: '2' });
    expect(life.validUntil).toBe(2600);
    expect(f.now() > life.validUntil).toBe(true);
  });

  it('an expired lease (TTL 0) extends nothing; a new stream forgets unanswered keep-alives; loss is reported', () => {
    const f = fakeLease();
    const life = followLease(f.lease, 0, 2000, f.now);
    f.at(600);
    f.emit('keepaliveFired');
    f.emit('keepaliveSucceeded', { TTL: '0' });
    expect(life.validUntil).toBe(2000);
    f.emit('keepaliveFired');
    f.emit('keepaliveFailed', new Error('stream reset'));
    f.emit('keepaliveEstablished');
    f.at(1500);
    f.emit('keepaliveFired');
    f.emit('keepaliveSucceeded', { TTL: '2' });
    expect(life.validUntil).toBe(3500);
    f.emit('lost', new Error('etcdserver: requested lease not found'));
    expect(life.lost).toBe('lease lost: etcdserver: requested lease not found');
  });
});
