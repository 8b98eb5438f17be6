"""PostgreSQL's session-level advisory locks through psycopg2 (Debian python3-psycopg2 2.9) as a fencecheck client.

Used as applications use them: one connection kept for the lock (the session owns the lock),
`SELECT pg_try_advisory_lock(k)` retried until the call timeout, `SELECT pg_advisory_unlock(k)`.
`--backend pg-advisory` connects to the lock's own PostgreSQL (pgl1); `--backend pg-advisory-pooled`
to PgBouncer in transaction pooling mode (pgb1), with the same code: what breaks there is the
point (docs/lock-clients.md, "behind PgBouncer").

The key: the first 8 bytes of SHA-256 of the lock name, signed (the built-in client's, so both
exclude each other). The token: PostgreSQL's advisory locks have none; as the built-in client, a
sequence drawn in the grant's own statement, `SELECT CASE WHEN pg_try_advisory_lock(k) THEN
nextval(...) END`: nextval runs only once the lock is taken, and the next holder can take it only
after this one unlocked or its session ended, so tokens grow in grant order (monotonic).

No lease: a session lock lasts until unlock or the session's end; `lease_ms` records the TTL asked
for, which nothing applies. The lock connection is asynchronous (psycopg2's async_=1), polled
with a deadline: psycopg2 has no client-side statement timeout, `options=-c statement_timeout`
is a startup parameter PgBouncer refuses, and a session `SET` would leak to other clients through
the pooler. At the deadline the connection is closed: the session, and any lock it held, ends.
"""
import hashlib
import select
import sys
import time
from importlib.metadata import version

import psycopg2
import psycopg2.extensions as ext

sys.path.insert(0, __import__("os").path.dirname(__file__))
from fencecheck_protocol import Fail, Info, close_quietly, serve  # noqa: E402

SEQUENCE = "fencecheck_lock_token"
TRY_LOCK = f"SELECT CASE WHEN pg_try_advisory_lock(%s::bigint) THEN nextval('{SEQUENCE}') END"
UNLOCK = "SELECT pg_advisory_unlock(%s::bigint)"
# A CREATE ... IF NOT EXISTS that raced another client's: the sequence exists, which is all that is needed.
ALREADY_CREATED = {"23505", "42P07"}


def advisory_key(name):
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


class Timeout(Exception):
    pass


def wait(conn, deadline):
    """Poll an async connection until its operation is done; Timeout at the monotonic deadline."""
    while True:
        state = conn.poll()
        if state == ext.POLL_OK:
            return
        left = deadline - time.monotonic()
        if left <= 0:
            raise Timeout()
        fd = conn.fileno()
        if state == ext.POLL_READ:
            select.select([fd], [], [], left)
        elif state == ext.POLL_WRITE:
            select.select([], [fd], [], left)
        else:
            raise psycopg2.OperationalError(f"poll() returned {state}")


class AdvisoryLock:
    def __init__(self, config):
        host, port = config["lockEndpoints"][0].rsplit(":", 1)
        self.dsn = {"host": host, "port": int(port), "user": "postgres", "dbname": "postgres"}
        self.call_s = config["callTimeoutMs"] / 1000
        self.key = advisory_key(config["lockName"])
        self.conn = None
        self.held = False

    def connect(self):
        try:
            self._session()
        except (Fail, Info) as e:
            # Best effort, as the other clients: a server not reachable yet makes ops fail, not the process.
            sys.stderr.write(f"postgres not reachable yet: {e}\n")

    def _session(self):
        """The lock's session, opened (with the token sequence) when there is none: a new session holds nothing."""
        if self.conn is not None and not self.conn.closed:
            return self.conn
        deadline = time.monotonic() + self.call_s
        try:
            conn = psycopg2.connect(**self.dsn, async_=1, connect_timeout=max(1, round(self.call_s)),
                                    keepalives=1, keepalives_idle=1, keepalives_interval=1, keepalives_count=2,
                                    tcp_user_timeout=int(self.call_s * 1000))
            wait(conn, deadline)
        except (psycopg2.Error, Timeout) as e:
            raise Fail("pg-connect", str(e).strip() or "connect timed out")
        self.conn = conn
        try:
            self._query(f"CREATE SEQUENCE IF NOT EXISTS {SEQUENCE}", (), deadline)
        except Fail as e:
            if e.code.removeprefix("pg-") not in ALREADY_CREATED:
                raise
        return conn

    def _query(self, sql, params, deadline):
        """One statement on the lock's session; its single value. A lost or timed-out session is closed."""
        conn = self.conn
        try:
            cur = conn.cursor()
            cur.execute(sql, params)
            wait(conn, deadline)
            row = cur.fetchone() if cur.description is not None else None
            return row[0] if row else None
        except Timeout:
            self._drop()
            # It may have run at the server; closing the session ends whatever it took.
            raise Info("timeout", f"no answer in {self.call_s} s: session closed")
        except psycopg2.Error as e:
            if e.pgcode is not None:
                # The server refused the statement: it did nothing.
                raise Fail(f"pg-{e.pgcode}", str(e).strip())
            self._drop()
            raise Info("connection-lost", str(e).strip())

    def _drop(self):
        close_quietly(self.conn)
        self.conn = None

    def acquire(self, ttl_ms):
        if self.conn is None or self.conn.closed:
            # The session that held nothing is gone: a new one, as an application reconnects.
            self._session()
        deadline = time.monotonic() + self.call_s
        while True:
            token = self._query(TRY_LOCK, (self.key,), deadline)
            if token is not None:
                self.held = True
                return {"token": int(token), "lease_ms": ttl_ms}
            # Every try answered null: another session held the key; nextval did not run.
            if time.monotonic() + 0.05 >= deadline:
                raise Fail("held", f"advisory lock {self.key} is held by another session")
            time.sleep(0.05)

    def release(self):
        self.held = False
        if self.conn is None or self.conn.closed:
            # Nothing is sent; the session is gone, and with it the server released its locks.
            raise Fail("not-connected", "the lock's session is gone")
        released = self._query(UNLOCK, (self.key,), time.monotonic() + self.call_s)
        if released is not True:
            # Behind a pooler: the statement ran on a server connection that does not hold the lock.
            raise Fail("not-held", f"pg_advisory_unlock({self.key}) returned {released}: this session did not hold the lock")

    def close(self):
        self._drop()


if __name__ == "__main__":
    sys.exit(serve(AdvisoryLock, "monotonic", {"python": sys.version.split()[0], "psycopg2": version("psycopg2")}))
