"""kazoo's Lock (Debian python3-kazoo 2.8) as a fencecheck client.

Used as kazoo's documentation shows: `zk = KazooClient(hosts=...)`, `zk.start()`,
`lock = zk.Lock(path, identifier)`, `lock.acquire(timeout=...)`, `lock.release()`.
The lease is the ZooKeeper session (`timeout=`, from the run's TTL).

Token: kazoo exposes the lock's znode name (`lock.node`, `…__lock__0000000042`); its
sequence number grows for every contender under the lock's parent, so it is a monotonic
fencing token as long as the parent is not deleted. (The znode's czxid, globally
monotonic, is not exposed by the Lock; reading it would be one more round trip after
the grant.)
"""
import logging
import sys
from importlib.metadata import version

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException, LockTimeout
from kazoo.handlers.threading import KazooTimeoutError

sys.path.insert(0, __import__("os").path.dirname(__file__))
from fencecheck_protocol import Fail, Info, serve  # noqa: E402

logging.basicConfig(stream=sys.stderr, level=logging.WARNING)


class KazooLock:
    def __init__(self, config):
        self.call_s = config["callTimeoutMs"] / 1000
        self.session_ms = config.get("sessionTimeoutMs") or 10_000
        self.path = config["lockName"]
        self.zk = KazooClient(hosts=",".join(config["lockEndpoints"]), timeout=self.session_ms / 1000)
        self.lock = None

    def connect(self):
        try:
            self.zk.start(timeout=15)
        except KazooTimeoutError as e:
            sys.stderr.write(f"zookeeper not reachable yet: {e}\n")

    def acquire(self, ttl_ms):
        lock = self.zk.Lock(self.path, "fencecheck")
        try:
            lock.acquire(timeout=self.call_s)
        except LockTimeout as e:
            # kazoo deleted its contender znode before raising (the session still lives): not ours.
            raise Fail("held", str(e))
        except (KazooException, KazooTimeoutError) as e:
            # The contender znode may exist, and may become the holder.
            raise Info("zk-error", f"{type(e).__name__}: {e}")
        self.lock = lock
        # `<uuid>__lock__0000000042`: ZooKeeper's 10-digit sequence suffix.
        return {"token": int(lock.node[-10:]), "lease_ms": self.session_ms}

    def release(self):
        lock, self.lock = self.lock, None
        try:
            if not lock.release():
                # kazoo answers False when it did not hold the lock any more.
                raise Fail("not-held", "kazoo: not held")
        except (KazooException, KazooTimeoutError) as e:
            raise Info("zk-error", f"{type(e).__name__}: {e}")

    def close(self):
        try:
            self.zk.stop()
            self.zk.close()
        except Exception:
            pass


if __name__ == "__main__":
    sys.exit(serve(KazooLock, "monotonic", {"python": sys.version.split()[0], "kazoo": version("kazoo"), "psycopg2": version("psycopg2")}))
