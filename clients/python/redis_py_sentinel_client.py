"""redis-py's Lock over Sentinel (Debian python3-redis 4.3.4) as a fencecheck client.

Used as redis-py's documentation shows for a replicated Redis: `Sentinel([(host, port), ...])`,
`master = sentinel.master_for(name)`, then `master.lock(...)` as on one node. The Sentinels are
fencecheck's `--backend redis-sentinel` client endpoints (`lockEndpoints`); the master's name is
`fencecheck`. After a failover, `master_for`'s connection pool asks the Sentinels again for the
master on its next connection, so a client follows the promotion as an application would.

Token: the same random UUID as redis-py's Lock on one node (unique, not ordered).
"""
import sys

import redis
from redis.sentinel import Sentinel

sys.path.insert(0, __import__("os").path.dirname(__file__))
from fencecheck_protocol import serve  # noqa: E402
from redis_py_client import RedisPyLock, library_versions  # noqa: E402

# The name every Sentinel monitors in fencecheck's redis-sentinel cluster (runtime/clients/sentinel-probes.ts).
MASTER_NAME = "fencecheck"


class RedisPySentinelLock(RedisPyLock):
    def __init__(self, config):
        self.call_s = config["callTimeoutMs"] / 1000
        self.name = config["lockName"]
        sentinels = [(h, int(p)) for h, p in (e.rsplit(":", 1) for e in config["lockEndpoints"])]
        self.sentinel = Sentinel(sentinels, socket_timeout=self.call_s, socket_connect_timeout=self.call_s)
        self.r = self.sentinel.master_for(MASTER_NAME, socket_timeout=self.call_s, socket_connect_timeout=self.call_s)
        self.lock = None


if __name__ == "__main__":
    sys.exit(serve(RedisPySentinelLock, "unique", library_versions()))
