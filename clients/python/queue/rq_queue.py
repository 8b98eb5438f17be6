"""RQ (Debian's python3-rq 1.13, on Redis) as a fencecheck queue program (docs/queues.md).

The producer enqueues each job (`Queue.enqueue`, fencecheck's job number as its id, a success callback);
the worker is RQ's own `Worker`, as its docs show: it forks a work horse for each job and watches it,
renewing its own and the job's entries in Redis (`job_monitoring_interval`, 30 s, plus 60 s). RQ takes a
job back only when its entry in the started registry has expired, in the worker's maintenance (every 10
minutes), and then fails it unless the job was enqueued with a `Retry`; so a stall of seconds never makes
it run a job twice. RQ keeps no attempt number (`retries_left` counts down configured retries only): the
program announces none and cannot serve attempt-fence. A completion is never refused.
"""
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from redis import Redis, exceptions as redis_exceptions  # noqa: E402
from redis.sentinel import Sentinel  # noqa: E402
from rq import Queue, Worker, VERSION as rq_version  # noqa: E402
from rq.worker import StopRequested  # noqa: E402

import rq_jobs  # noqa: E402
from fencecheck_queue_protocol import log, read_config, ready, serve_producer, stop_when_stdin_ends  # noqa: E402

config = read_config()
library = f"rq {rq_version}"
sentinels = config["queue"].get("sentinels")
if sentinels:
    # Behind Sentinels (--backend redis-sentinel): redis-py's Sentinel, the master asked of them on each connection
    # (a demoted master's READONLY drops the connection, and the next asks again), as RQ's docs connect.
    # The timeout is the Sentinels' own (sentinel_kwargs): given as Sentinel's keyword it would be the master
    # connection's too, and RQ's worker quits on a Redis timeout ("Redis connection timeout, quitting": seen so).
    connection = Sentinel([(s["host"], s["port"]) for s in sentinels], sentinel_kwargs={"socket_timeout": 1}).master_for(config["queue"]["name"])
else:
    connection = Redis(host=config["queue"]["host"], port=config["queue"]["port"])
queue = Queue(config["queueName"], connection=connection)

if config["role"] == "producer":

    def enqueue(j):
        queue.enqueue("rq_jobs.fc_job", j, job_id=f"job-{j}", on_success=rq_jobs.on_success)

    serve_producer(config, library, None, enqueue)
    sys.exit(0)


stopping = threading.Event()


def stop():
    # RQ's own warm shutdown (SIGTERM: the job under way finishes); ended if it does not end within 3 s.
    stopping.set()
    threading.Timer(3.0, lambda: os._exit(0)).start()
    os.kill(os.getpid(), signal.SIGTERM)


ready(config, library, None)
stop_when_stdin_ends(stop)
# RQ's worker quits when Redis fails it in some places (a connection refused while it finishes a job, a timeout:
# "found an unhandled exception, quitting..."), and RQ's docs run it under a supervisor (supervisord, systemd) that
# starts it again: this loop is that supervisor, so the program ends only when asked. Each worker gets RQ's own
# name (a fresh uuid): one started again must not meet its dead self's registration, which RQ keeps for its
# worker_ttl (420 s) and refuses ("There exists an active worker").
try:
    while not stopping.is_set():
        try:
            Worker([queue], connection=connection).work(logging_level="WARNING")
        except redis_exceptions.RedisError as err:
            log(f"rq worker ended: {err!r}")
        if not stopping.is_set():
            log("rq worker quit on its own; started again in 1 s, as a supervisor would")
            stopping.wait(1.0)
except StopRequested:
    # The stop's SIGTERM reached a worker's handler between two runs of the loop: asked, so ended.
    pass
log("rq worker stopped")
