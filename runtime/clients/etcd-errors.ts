/**
 * The error table of one etcd call (etcd3 over @grpc/grpc-js). Only errors
 * that prove the request never reached a server, or that the server refused
 * it as a whole, are `fail`; every other one is `info`, because a txn whose
 * answer was lost may have committed.
 */
import { failed, indeterminate, messageOf, OpError } from './op-error.js';
import { CallTimeoutError } from './time.js';

export function etcdOpError(err: unknown): OpError {
  if (err instanceof OpError) return err;
  const msg = messageOf(err);
  // grpc-js says "Waiting for LB pick" when the deadline passed before any connection was picked: no stream was opened.
  if (/Waiting for LB pick/.test(msg)) return failed('not-connected', msg, err);
  // UNAVAILABLE "No connection established": the channel had no connection, the call was refused before sending.
  if (/No connection established/.test(msg)) return failed('not-connected', msg, err);
  // cockatiel's breaker was open for every host: etcd3 made no call.
  if (/circuit breaker is open/.test(msg)) return failed('not-connected', msg, err);
  // The server rejected the txn as a whole (its put names a lease that no longer exists): nothing applied.
  if (/requested lease not found/.test(msg)) return failed('lease-not-found', msg, err);
  // A deadline after the request was sent (ours or grpc's): the txn may have committed.
  if (err instanceof CallTimeoutError || /DEADLINE_EXCEEDED|Deadline exceeded/i.test(msg)) return indeterminate('timeout', msg, err);
  // Anything else (a dropped connection, "leader changed", "request timed out"): it may have applied.
  return indeterminate('etcd-error', msg, err);
}
