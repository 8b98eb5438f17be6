"""redis-py's Lock (Debian python3-redis 4.3.4) as a fencecheck client.

Used as redis-py's documentation shows: `lock = r.lock(name, timeout=..., blocking_timeout=...)`,
`lock.acquire()`, `lock.release()`. One Redis node (fencecheck's `--backend redis` cluster).

Token: redis-py's Lock stores a random UUID as the key's value (`lock.local.token`) and offers
nothing ordered: a unique token, no fencing token (a finding: fence modes do not apply).
"""
import sys
from importlib.metadata import version

import redis
import redis.exceptions as rx

sys.path.insert(0, __import__("os").path.dirname(__file__))
from fencecheck_protocol import Fail, Info, serve  # noqa: E402


class RedisPyLock:
    def __init__(self, config):
        host, port = config["lockEndpoints"][0].rsplit(":", 1)
        self.call_s = config["callTimeoutMs"] / 1000
        self.name = config["lockName"]
        self.r = redis.Redis(host=host, port=int(port), socket_timeout=self.call_s, socket_connect_timeout=self.call_s)
        self.lock = None

    def connect(self):
        try:
            self.r.ping()
        except rx.RedisError as e:
            # Best effort, as the built-in clients: a server not reachable yet makes ops fail, not the process.
            sys.stderr.write(f"redis not reachable yet: {e}\n")

    def acquire(self, ttl_ms):
        lock = self.r.lock(self.name, timeout=ttl_ms / 1000, blocking_timeout=self.call_s)
        try:
            got = lock.acquire()
        except rx.TimeoutError as e:
            # A SET NX PX may have reached the server.
            raise Info("timeout", str(e))
        except rx.ConnectionError as e:
            raise Info("connection-lost", str(e))
        if not got:
            # Every SET NX answered "exists" until blocking_timeout: definitely not ours.
            raise Fail("held", "blocking_timeout passed")
        self.lock = lock
        return {"token": lock.local.token.decode(), "lease_ms": ttl_ms}

    def release(self):
        lock, self.lock = self.lock, None
        try:
            lock.release()
        except rx.LockNotOwnedError as e:
            # The release script compared the value and deleted nothing.
            raise Fail("not-held", str(e))
        except rx.TimeoutError as e:
            raise Info("timeout", str(e))
        except rx.ConnectionError as e:
            raise Info("connection-lost", str(e))

    def close(self):
        self.r.close()


def library_versions():
    return {"python": sys.version.split()[0], "redis-py": redis.__version__, "psycopg2": version("psycopg2")}


if __name__ == "__main__":
    sys.exit(serve(RedisPyLock, "unique", library_versions()))
