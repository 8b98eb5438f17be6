"""The fencecheck client protocol, version 1, in Python (docs/client-protocol.md).

A lock client is a small class with connect / acquire / release / close; this
module does the rest: it reads the configuration from FC_CLIENT_CONFIG, prints
the ready line, answers one JSON request per line on stdin with one JSON answer
per line on stdout, strictly in order, and runs each access's SQL statements
(sent by the runner) on its own PostgreSQL connection with its token bound,
transactions included (feature `transactions`: for-update's read opens one, its
write commits it; autocommit stays on, so BEGIN and COMMIT are sent as they come).

Outcomes follow Jepsen: raise Fail(code) when the operation definitely did not
happen, Info(code) when it may have; anything else a library raises is `info`
(a wrong `fail` could hide a bug, a wrong `info` only costs precision).

Only Debian's python3 with python3-psycopg2 is needed; run it as /usr/bin/python3.
"""
import json
import os
import sys
import time
import traceback

import psycopg2
import psycopg2.errors

PROTOCOL_VERSION = 1


class Fail(Exception):
    """It definitely did not happen."""

    def __init__(self, code, detail=""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


class Info(Exception):
    """It may have happened."""

    def __init__(self, code, detail=""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


def log(line):
    sys.stderr.write(f"{time.strftime('%H:%M:%S')} {line}\n")
    sys.stderr.flush()


class Resource:
    """One autocommit PostgreSQL connection, reopened after a failure; statements as the runner sends them."""

    def __init__(self, pg, call_timeout_ms):
        self.pg = pg
        self.call_timeout_ms = call_timeout_ms
        self.conn = None
        self.in_transaction = False

    def _connected(self):
        if self.conn is not None and not self.conn.closed:
            return self.conn
        try:
            self.conn = psycopg2.connect(
                host=self.pg["host"], port=self.pg["port"], user=self.pg["user"], dbname=self.pg["database"],
                connect_timeout=max(1, round(self.call_timeout_ms / 1000)),
                # The server cancels (and rolls back) a statement that runs too long: a definite fail.
                options=f"-c statement_timeout={max(1, int(self.call_timeout_ms * 0.8))}",
                # A silent network (a partition) breaks the connection instead of blocking forever.
                tcp_user_timeout=self.call_timeout_ms, keepalives=1, keepalives_idle=1, keepalives_interval=1, keepalives_count=2,
            )
        except psycopg2.Error as e:
            # Nothing was sent: the connection never opened.
            raise Fail("pg-connect", str(e).strip())
        self.conn.autocommit = True
        return self.conn

    def _drop(self):
        close_quietly(self.conn)
        self.conn = None

    def run(self, statements, token):
        if not statements:
            raise Fail("not-applicable", "this access has no statement in this resource mode")
        # Bind every token first: a token that does not fit fails the access with nothing sent.
        bound = [(s, [bind(p, token) for p in s["params"]]) for s in statements]
        # Feature `transactions`: a transaction a previous section left open must not absorb this one.
        if self.in_transaction and statements[0].get("control") == "begin":
            self._rollback()
        last = None
        for s, values in bound:
            try:
                if s.get("control") == "commit":
                    self.in_transaction = False
                cur = self._connected().cursor()
                cur.execute(to_pyformat(s["sql"]), {f"p{i + 1}": v for i, v in enumerate(values)})
                rows = cur.fetchall() if cur.description is not None else []
                names = [d[0] for d in cur.description] if cur.description is not None else []
                count = cur.rowcount
            except Fail:
                raise
            except psycopg2.Error as e:
                in_transaction = self.in_transaction
                if in_transaction:
                    self._rollback()
                if isinstance(e, psycopg2.errors.QueryCanceled):
                    # statement_timeout: the server cancelled our statement and rolled it back.
                    raise Fail("statement-timeout", str(e).strip())
                if e.pgcode is not None:
                    # The server refused our statement: rolled back.
                    raise Fail(f"pg-{e.pgcode}", str(e).strip())
                self._drop()
                # The connection broke with the statement in flight: a read changed nothing, a write may have committed,
                # unless it was inside a transaction whose COMMIT was never sent.
                if s.get("readOnly") or in_transaction:
                    raise Fail("connection-lost", str(e).strip())
                raise Info("connection-lost", str(e).strip())
            if s.get("control") == "begin":
                self.in_transaction = True
            if s.get("control") is not None:
                continue
            if count == 0:
                if self.in_transaction:
                    self._rollback()
                return {"type": "fail", "outcome": "rejected", "error": s["rejectIfNoRow"]}
            last = dict(zip(names, rows[0])) if rows else None
        answer = {"type": "ok", "outcome": "accepted"}
        if last is not None and "data" in last:
            answer["value"] = data_value(last["data"])
        if last is not None and last.get("fence") is not None:
            answer["fence"] = int(last["fence"])
        if last is not None and last.get("version") is not None:
            answer["version"] = int(last["version"])
        return answer

    def _rollback(self):
        """End the open transaction; a broken connection's transaction ends with it at the server."""
        self.in_transaction = False
        if self.conn is not None and not self.conn.closed:
            try:
                self.conn.cursor().execute("ROLLBACK")
            except psycopg2.Error:
                self._drop()

    def close(self):
        self._drop()


def close_quietly(conn):
    """Closes a psycopg2 connection that may already be broken (a lost connection is what got us here)."""
    if conn is not None:
        try:
            conn.close()
        except psycopg2.Error:
            pass


def to_pyformat(sql):
    """$1, $2 … as psycopg2's %s (the runner's statements use PostgreSQL's numbered parameters in order)."""
    out, i, n = [], 0, 0
    while i < len(sql):
        if sql[i] == "$" and i + 1 < len(sql) and sql[i + 1].isdigit():
            j = i + 1
            while j < len(sql) and sql[j].isdigit():
                j += 1
            out.append(f"%(p{sql[i + 1:j]})s")
            i = j
        elif sql[i] == "%":
            out.append("%%")
            i += 1
        else:
            out.append(sql[i])
            i += 1
    return "".join(out)


def bind(param, token):
    if param is None or isinstance(param, str):
        return param
    if param.get("token") == "fence":
        if isinstance(token, bool) or not isinstance(token, int) or token < 0:
            raise Fail("no-fencing-token", f"token {token!r} is not a fencing token")
        return str(token)
    if token is None:
        raise Fail("no-token", "no hold to mark under")
    return str(token)


def data_value(text):
    s = "" if text is None else str(text)
    digits = s[1:] if s.startswith("-") else s
    # An exact integer's decimal text reads back as a number (as the built-in client does); other text as it is.
    if digits.isdigit() and (digits == "0" or not digits.startswith("0")) and abs(int(s)) <= 2**53 - 1:
        return int(s)
    return s


class Handler:
    def __init__(self, lock, resource):
        self.lock = lock
        self.resource = resource
        self.token = None
        self.holding = False

    def handle(self, req):
        op = req["op"]
        try:
            if op == "acquire":
                if self.holding:
                    raise Fail("already-held", f"this client holds token {self.token!r}")
                got = self.lock.acquire(req["ttlMs"])
                self.holding, self.token = True, got.get("token")
                return {"type": "ok", **{k: v for k, v in got.items() if v is not None}}
            if op == "release":
                token, was, self.holding, self.token = self.token, self.holding, False, None
                if not was:
                    # Nothing is sent: this client holds nothing.
                    raise Fail("not-held", "nothing held")
                self.lock.release()
                return {"type": "ok", **({"token": token} if token is not None else {})}
            if op in ("read", "write", "mark"):
                if not self.holding:
                    return {"type": "fail", "error": "no-hold", "outcome": "unknown"}
                a = self.resource.run(req["statements"], self.token)
                return {**a, **({"token": self.token} if self.token is not None else {})}
            if op == "final-read":
                a = self.resource.run(req["statements"], self.token)
                return {k: v for k, v in a.items() if k in ("type", "value", "error")}
            if op == "shutdown":
                return {"type": "ok"}
            return {"type": "fail", "error": "bad-request"}
        except (Fail, Info) as e:
            log(f"{op}: {e}")
            body = {"type": "fail" if isinstance(e, Fail) else "info", "error": e.code}
            if op in ("read", "write", "mark"):
                body["outcome"] = "unknown"
            if op != "acquire" and self.token is not None:
                body["token"] = self.token
            return body
        except Exception:  # a library's surprise: it may have happened
            log(f"{op}: unexpected {traceback.format_exc()}")
            return {"type": "info", "error": "client-error", **({"outcome": "unknown"} if op in ("read", "write", "mark") else {})}


def serve(make_lock, token_kind, versions):
    """Read FC_CLIENT_CONFIG, connect, print the ready line, answer requests until shutdown or end of input."""
    try:
        config = json.loads(os.environ["FC_CLIENT_CONFIG"])
    except (KeyError, ValueError) as e:
        sys.stderr.write(f"Expected FC_CLIENT_CONFIG to hold the client configuration (JSON): {e}\n")
        return 254
    lock = make_lock(config)
    lock.connect()
    resource = Resource(config["pg"], config["callTimeoutMs"])
    handler = Handler(lock, resource)
    out = sys.stdout
    # `transactions`: this module runs the control statements and the version column (docs/client-protocol.md).
    out.write(json.dumps({"ready": True, "protocol": PROTOCOL_VERSION, "token": token_kind, "versions": versions, "features": ["transactions"]}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        # CLOCK_MONOTONIC, the clock the runner reads too: the op cannot have taken effect before this instant.
        started = time.monotonic_ns()
        try:
            req = json.loads(line)
            rid = req["id"]
        except (ValueError, KeyError, TypeError):
            out.write(json.dumps({"id": -1, "type": "fail", "error": "bad-request"}) + "\n")
            out.flush()
            continue
        answer = {"id": rid, **handler.handle(req), "started_ns": str(started)}
        out.write(json.dumps(answer) + "\n")
        out.flush()
        if req.get("op") == "shutdown":
            break
    try:
        lock.close()
        resource.close()
    except Exception:
        pass
    return 0
