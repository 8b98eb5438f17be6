"""python-etcd3's Lock (Debian python3-etcd3 0.12.0) as a fencecheck client.

Used as python-etcd3's documentation shows: `etcd = etcd3.client(host, port)`,
`lock = etcd.lock(name, ttl=...)`, `lock.acquire(timeout=...)`, `lock.release()`.
The lease is the lock's TTL; the library does not keep it alive (a holder must call
`lock.refresh()` itself; the documentation's example does not), so a hold ends after
the TTL whatever the holder does. The client talks to one endpoint (the first), as
`etcd3.client` takes one.

Finding: with Debian's python3-tenacity 8.2, `Lock.acquire` on a held lock raises a
TypeError after its first attempt (its retry-wait callback has tenacity 4's two-argument
signature), so the Lock never waits: an acquire of a held lock fails at once.

Token: the Lock puts a random UUID under `/locks/<name>` and keeps it (`lock.uuid`, 16 bytes, sent as hex);
the winning transaction's revision, which would be a fencing token, is dropped
(python-etcd3's own source says "TODO: save the created revision"). A unique token:
fence modes do not apply.
"""
import sys
from importlib.metadata import version

import etcd3
import etcd3.exceptions as ex
import grpc

sys.path.insert(0, __import__("os").path.dirname(__file__))
from fencecheck_protocol import Fail, Info, serve  # noqa: E402


class Etcd3Lock:
    def __init__(self, config):
        host, port = config["lockEndpoints"][0].rsplit(":", 1)
        self.call_s = config["callTimeoutMs"] / 1000
        self.name = config["lockName"]
        self.etcd = etcd3.client(host=host, port=int(port), timeout=self.call_s)
        self.lock = None

    def connect(self):
        pass

    def acquire(self, ttl_ms):
        # etcd leases are whole seconds.
        ttl_s = max(1, -(-ttl_ms // 1000))
        lock = self.etcd.lock(self.name, ttl=ttl_s)
        try:
            got = lock.acquire(timeout=self.call_s)
        except (ex.Etcd3Exception, grpc.RpcError) as e:
            # The create-if-absent transaction may have committed.
            raise Info("etcd-error", f"{type(e).__name__}: {e}")
        except TypeError as e:
            if "delay_since_first_attempt" not in str(e):
                raise
            # A finding: python-etcd3 0.12's wait callback has tenacity 4's signature, and Debian's tenacity 8
            # calls it with one argument, so the Lock cannot wait for a held lock. It is reached only after the
            # transaction answered "the key exists": definitely not ours (its fresh lease is left to expire).
            raise Fail("held", "python-etcd3 Lock.acquire cannot wait with tenacity 8 (TypeError in its wait callback)")
        if not got:
            # Every transaction answered "exists" until the timeout: not ours.
            raise Fail("held", "timeout")
        self.lock = lock
        return {"token": lock.uuid.hex(), "lease_ms": ttl_s * 1000}

    def release(self):
        lock, self.lock = self.lock, None
        try:
            ok = lock.release()
        except (ex.Etcd3Exception, grpc.RpcError) as e:
            raise Info("etcd-error", f"{type(e).__name__}: {e}")
        if not ok:
            # The compare-value-and-delete transaction found another value (or none): nothing deleted.
            raise Fail("not-held", "the key holds another value")

    def close(self):
        try:
            self.etcd.close()
        except Exception:
            pass


if __name__ == "__main__":
    sys.exit(serve(Etcd3Lock, "unique", {"python": sys.version.split()[0], "python-etcd3": etcd3.__version__, "grpcio": version("grpcio"), "psycopg2": version("psycopg2")}))
