"""The fencecheck queue protocol, version 1, in Python (docs/queues.md, "The queue protocol").

The same protocol as clients/node/fencecheck-queue-protocol.mjs: the configuration in
FC_QUEUE_CONFIG; one ready line first; a producer answers `{"id": n, "enqueue": J}` lines on
stdin with `{"id": n, "type": "ok" | "info", "error"?: ...}`; a worker prints `take`, `effect`
and `complete` events for each job its library hands it, and stops when stdin ends.

The job's effect is the runner's one SQL statement ($1 job, $2 attempt, $3 worker; one row back,
`accepted`), run here on one autocommit psycopg2 connection, reopened after a failure. Only
Debian's python3 with python3-psycopg2 is needed; run it as /usr/bin/python3.
"""
import json
import os
import re
import sys
import threading
import time

import psycopg2

QUEUE_PROTOCOL_VERSION = 1
_out_lock = threading.Lock()


def log(line):
    sys.stderr.write(f"{time.strftime('%H:%M:%S')} {line}\n")
    sys.stderr.flush()


def out(obj):
    # A library may run handlers on threads of its own: one line at a time.
    # sys.__stdout__: a library may replace sys.stdout (Celery redirects it to its logger).
    with _out_lock:
        sys.__stdout__.write(json.dumps(obj) + "\n")
        sys.__stdout__.flush()


def read_config():
    text = os.environ.get("FC_QUEUE_CONFIG")
    if not text:
        sys.stderr.write("FC_QUEUE_CONFIG is not set: this program is started by `fencecheck run --workload queue`\n")
        sys.exit(2)
    return json.loads(text)


def _pyformat(sql):
    """The runner's $1, $2, $3 as psycopg2's named %(pN)s: a parameter may appear more than once
    (attempt-fence's $2), which positional %s would miscount."""
    return re.sub(r"\$(\d+)", r"%(p\1)s", sql.replace("%", "%%"))


class Effect:
    """The job's side effect on the protected resource: 'ok', 'rejected', 'fail' (never sent) or 'info'."""

    def __init__(self, config):
        self.config = config
        self.sql = _pyformat(config["effectSql"])
        self.conn = None

    def _connection(self):
        if self.conn is not None and not self.conn.closed:
            return self.conn
        pg = self.config["pg"]
        timeout_ms = self.config["callTimeoutMs"]
        self.conn = psycopg2.connect(
            host=pg["host"], port=pg["port"], user=pg["user"], dbname=pg["database"],
            connect_timeout=max(1, round(timeout_ms / 1000)),
            options=f"-c statement_timeout={timeout_ms}",
        )
        self.conn.autocommit = True
        return self.conn

    def apply(self, job, attempt):
        connected = False
        try:
            conn = self._connection()
            connected = True
            with conn.cursor() as cur:
                cur.execute(self.sql, {"p1": job, "p2": attempt, "p3": self.config["worker"]})
                row = cur.fetchone()
            return {"phase": "ok" if row is not None and row[0] is True else "rejected"}
        except Exception as e:  # noqa: BLE001 - any failure of the call is the effect's outcome
            if self.conn is not None:
                try:
                    self.conn.close()
                except Exception:  # noqa: BLE001
                    pass
            self.conn = None
            # Not connected: the statement was never sent, so it definitely did not happen.
            return {"phase": "info" if connected else "fail", "error": str(e).strip()[:200]}

    def close(self):
        if self.conn is not None:
            self.conn.close()


class WorkerEvents:
    """A worker's handler around the library's job: take, hold for the job's duration, the effect,
    then complete's invoke; report the library's answer with completed / refused / unknown."""

    def __init__(self, config):
        self.config = config
        self.effect = Effect(config)

    def handle(self, job, attempt):
        out({"event": "take", "job": job, "attempt": attempt})
        time.sleep(self.config["jobMs"] / 1000)
        out({"event": "effect", "phase": "invoke", "job": job, "attempt": attempt})
        r = self.effect.apply(job, attempt)
        out({"event": "effect", "job": job, "attempt": attempt, **r})
        # The gap an effect-kill aims at (the effect landed, the completion not yet sent); 0 unless that fault is on.
        after = self.config.get("afterEffectMs", 0)
        if after > 0:
            time.sleep(after / 1000)
        out({"event": "complete", "phase": "invoke", "job": job, "attempt": attempt})

    def completed(self, job, attempt):
        out({"event": "complete", "phase": "ok", "job": job, "attempt": attempt})

    def refused(self, job, attempt, error):
        out({"event": "complete", "phase": "fail", "job": job, "attempt": attempt, "error": error})

    def unknown(self, job, attempt, error):
        out({"event": "complete", "phase": "info", "job": job, "attempt": attempt, "error": error})

    def close(self):
        self.effect.close()


def ready(config, library, attempt):
    out({"ready": True, "protocol": QUEUE_PROTOCOL_VERSION, "library": library, "attempt": attempt, "role": config["role"]})


def serve_producer(config, library, attempt, enqueue):
    """Print the ready line, then answer enqueue requests until stdin ends."""
    ready(config, library, attempt)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            enqueue(req["enqueue"])
            out({"id": req["id"], "type": "ok"})
        except Exception as e:  # noqa: BLE001
            # A producer cannot tell whether a job whose send raised is in the queue: info.
            out({"id": req["id"], "type": "info", "error": str(e).strip()[:200]})


def stop_when_stdin_ends(on_end):
    """A worker's library owns the main thread; stdin ending is the runner saying stop."""

    def watch():
        for _ in sys.stdin:
            pass
        on_end()

    threading.Thread(target=watch, name="fencecheck-stdin", daemon=True).start()
