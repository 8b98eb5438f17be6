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

from redis import Redis  # noqa: E402
from rq import Queue, Worker, VERSION as rq_version  # noqa: E402

import rq_jobs  # noqa: E402
from fencecheck_queue_protocol import log, read_config, ready, serve_producer, stop_when_stdin_ends  # noqa: E402

config = read_config()
library = f"rq {rq_version}"
connection = Redis(host=config["queue"]["host"], port=config["queue"]["port"])
queue = Queue(config["queueName"], connection=connection)

if config["role"] == "producer":

    def enqueue(j):
        queue.enqueue("rq_jobs.fc_job", j, job_id=f"job-{j}", on_success=rq_jobs.on_success)

    serve_producer(config, library, None, enqueue)
    sys.exit(0)


def stop():
    # RQ's own warm shutdown (SIGTERM: the job under way finishes); ended if it does not end within 3 s.
    threading.Timer(3.0, lambda: os._exit(0)).start()
    os.kill(os.getpid(), signal.SIGTERM)


# RQ's own name (a fresh uuid): a worker started again after a kill must not meet its dead self's
# registration, which RQ keeps for its worker_ttl (420 s) and refuses ("There exists an active worker").
worker = Worker([queue], connection=connection)
ready(config, library, None)
stop_when_stdin_ends(stop)
worker.work(logging_level="WARNING")
log("rq worker stopped")
