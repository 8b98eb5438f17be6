"""tooz's locks (Debian python3-tooz 3.1) as a fencecheck client: `tooz_client.py DRIVER`,
DRIVER one of memcached, redis, zookeeper, etcd3gw.

Used as tooz's documentation shows: `coordinator = coordination.get_coordinator(url, member_id)`,
`coordinator.start(start_heart=True)` (a thread heartbeats, which also refreshes held locks),
`lock = coordinator.get_lock(name)`, `lock.acquire(blocking=seconds)`, `lock.release()`.
The lock's TTL is the driver's `lock_timeout` URL option, in whole seconds (tooz parses it with
int()): the run's TTL rounded up.

Token: tooz's Lock API offers none (acquire returns a bool), on every driver; what sits under it,
read from tooz/drivers (docs/lock-clients.md): memcached `add(key, member_id, expire)`, the value
being the coordinator's member id (the same for every grant of a process), released by a
non-atomic get-then-delete; redis wraps redis-py's Lock (a UUID per acquire, kept private);
zookeeper wraps kazoo's Lock (a sequential znode, not exposed); etcd3gw a create-revision-0 txn
with a uuid4 value on a lease (its source: "TODO(jd): save the created revision"). So: token none.
"""
import logging
import math
import os
import sys
from importlib.metadata import version

from kazoo.exceptions import LockTimeout
import tenacity
from tooz import coordination
import tooz

sys.path.insert(0, os.path.dirname(__file__))
from fencecheck_protocol import Fail, Info, serve  # noqa: E402

logging.basicConfig(stream=sys.stderr, level=logging.WARNING)

DRIVERS = ("memcached", "redis", "zookeeper", "etcd3gw")


def driver_url(driver, endpoints, ttl_s, call_s):
    """The tooz URL of a driver over fencecheck's endpoints (etcd3gw and memcached take one host)."""
    timeouts = f"timeout={max(1, math.ceil(call_s))}&lock_timeout={ttl_s}"
    if driver == "memcached":
        return f"memcached://{endpoints[0]}?{timeouts}"
    if driver == "redis":
        # tooz's redis driver reads socket_timeout with int(): whole seconds.
        return f"redis://{endpoints[0]}?socket_timeout={max(1, math.ceil(call_s))}&lock_timeout={ttl_s}"
    if driver == "zookeeper":
        # The lease is the ZooKeeper session: `timeout` is kazoo's session timeout, in seconds.
        extra = "".join(f"&hosts={e}" for e in endpoints[1:])
        return f"zookeeper://{endpoints[0]}?timeout={ttl_s}{extra}"
    if driver == "etcd3gw":
        # etcd 3.4 serves its JSON gateway at /v3/ (tooz 3.1 defaults to /v3alpha/, which 3.4 answers 404).
        return f"etcd3+http://{endpoints[0]}?{timeouts}&api_version=v3"
    raise ValueError(f"Expected a tooz driver among {', '.join(DRIVERS)}, got {driver!r}")


def etcd3gw_client_with_api_path():
    """Debian 12's tooz 3.1 calls etcd3gw.client(..., api_path=...), which Debian's etcd3gw 2.0.0 does not take (its
    Etcd3Client does; the module function drops it): the two packages fail together unpatched, with a TypeError at
    get_coordinator. The smallest shim: the same function, forwarding api_path to Etcd3Client."""
    import etcd3gw
    from etcd3gw.client import Etcd3Client

    def client(host="localhost", port=2379, ca_cert=None, cert_key=None, cert_cert=None, timeout=None, protocol="http", api_path="/v3alpha/"):
        return Etcd3Client(host=host, port=port, ca_cert=ca_cert, cert_key=cert_key, cert_cert=cert_cert, timeout=timeout, protocol=protocol, api_path=api_path)

    etcd3gw.client = client
    sys.stderr.write("finding: etcd3gw-api-path: tooz 3.1 passes api_path, Debian's etcd3gw 2.0.0 client() refuses it; shimmed\n")


class ToozLock:
    def __init__(self, config):
        self.call_s = config["callTimeoutMs"] / 1000
        self.ttl_s = max(1, math.ceil((config.get("sessionTimeoutMs") or 10_000) / 1000))
        # A name without a slash: the zookeeper driver puts it under /tooz/locks itself.
        self.name = config["lockName"].lstrip("/").encode()
        if DRIVER == "etcd3gw":
            etcd3gw_client_with_api_path()
        member = f"fencecheck-{config['client']}-{os.getpid()}".encode()
        self.coord = coordination.get_coordinator(driver_url(DRIVER, config["lockEndpoints"], self.ttl_s, self.call_s), member)
        self.lock = None

    def connect(self):
        try:
            self.coord.start(start_heart=True)
        except tooz.ToozError as e:
            sys.stderr.write(f"{DRIVER} not reachable yet: {e}\n")

    def blocking(self):
        # tooz/_retry.py: `if stop_max_delay not in (True, False, None)` sets the stop; 1.0 == True in Python,
        # so blocking=1 (second) blocks forever on the memcached and etcd3gw drivers. A hair less is honoured.
        if self.call_s in (0, 1) and DRIVER in ("memcached", "etcd3gw"):
            sys.stderr.write("finding: blocking-one-is-forever: tooz's retry treats blocking=1 s as blocking=True (forever); using 0.999 s\n")
            return self.call_s * 0.999
        return self.call_s

    def acquire(self, ttl_ms):
        lock = self.coord.get_lock(self.name)
        try:
            got = lock.acquire(blocking=self.blocking())
        except coordination.ToozConnectionError as e:
            # The add / SET NX / create may have reached the server.
            raise Info("connection-lost", str(e))
        except tooz.ToozError as e:
            raise Info("tooz-error", str(e))
        except LockTimeout:
            # zookeeper (kazoo): its contender znode was deleted again after the timeout: nothing held.
            raise Fail("held", "blocking time ran out")
        except tenacity.RetryError:
            # memcached, etcd3gw: their retry stopped after `blocking` s, every try having found the lock taken.
            raise Fail("held", "blocking time ran out")
        if not got:
            # Every try found the lock taken until `blocking` ran out: nothing of ours was written.
            raise Fail("held", "blocking time ran out")
        self.lock = lock
        return {"lease_ms": self.ttl_s * 1000}

    def release(self):
        lock, self.lock = self.lock, None
        try:
            released = lock.release()
        except coordination.ToozConnectionError as e:
            raise Info("connection-lost", str(e))
        except tooz.ToozError as e:
            raise Info("tooz-error", str(e))
        if not released:
            # The driver found the lock not ours (expired, or another's value) and deleted nothing... as it says.
            raise Fail("not-held", "tooz's release returned False")

    def close(self):
        try:
            self.coord.stop()
        except tooz.ToozError:
            pass


def library_versions():
    libs = {"memcached": "pymemcache", "redis": "redis", "zookeeper": "kazoo", "etcd3gw": "etcd3gw"}
    return {"python": sys.version.split()[0], "tooz": version("tooz"), libs[DRIVER]: version(libs[DRIVER]), "psycopg2": version("psycopg2")}


if __name__ == "__main__":
    DRIVER = sys.argv[1] if len(sys.argv) > 1 else ""
    if DRIVER not in DRIVERS:
        sys.stderr.write(f"Expected a tooz driver among {', '.join(DRIVERS)}, got {DRIVER!r}\n")
        sys.exit(254)
    sys.exit(serve(ToozLock, "none", library_versions()))
