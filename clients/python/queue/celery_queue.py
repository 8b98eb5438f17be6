"""Celery (Debian's python3-celery 5.2, a Redis broker) as a fencecheck queue program (docs/queues.md).

The producer sends each job with `send_task`; the worker is Celery's own Worker, configured as its docs
show, with one exception that serves the measurement: the `solo` pool (the task runs in the worker's
process, so a stall of the program, SIGSTOP, stalls the task, as a blocked event loop or a GC pause would;
under the default prefork pool the signal would stop only the parent). The prefetch stays Celery's default
(4 messages a worker): with the prefetch of 1 its docs suggest for long tasks, Celery 5.2 on Redis took one
message and then the next only 5 s later, in every pool (measured on this machine), which no user keeps.

`--acks-late` (the `celery-acks-late` library) sets `task_acks_late`: the message is acknowledged after
the task returns instead of before it runs. The Redis transport keeps an unacknowledged message aside and
puts it back in the queue once its `visibility_timeout` (here --ttl-ms) has passed, so a worker stalled
past it has its job run again by another; kombu makes that check when a worker starts and then every tenth
10-second tick (about every 100 s). Without acks_late the message is gone before the task runs: a stalled
job is never handed out twice (and a worker that dies loses it). The attempt number Celery exposes is
`request.retries + 1`: it counts explicit retries only, so a redelivery keeps the number. An
acknowledgement is never refused: a completion is reported accepted once the task returned.
"""
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from celery import Celery, __version__ as celery_version  # noqa: E402
from celery.signals import task_success  # noqa: E402

from fencecheck_queue_protocol import WorkerEvents, log, read_config, ready, serve_producer, stop_when_stdin_ends  # noqa: E402

ATTEMPT = "request.retries + 1"
config = read_config()
acks_late = "--acks-late" in sys.argv[1:]
library = f"celery {celery_version}{' (acks_late)' if acks_late else ''}"
visibility = {"visibility_timeout": max(1, config["lockMs"] / 1000)}
sentinels = config["queue"].get("sentinels")
if sentinels:
    # Behind Sentinels (--backend redis-sentinel): kombu's sentinel transport, as Celery's docs configure it (one
    # sentinel:// URL per Sentinel, the master's name in the transport options); it asks them for the master.
    broker = ";".join(f"sentinel://{s['host']}:{s['port']}/0" for s in sentinels)
    transport = {**visibility, "master_name": config["queue"]["name"]}
else:
    broker = f"redis://{config['queue']['host']}:{config['queue']['port']}/0"
    transport = visibility
app = Celery("fencecheck", broker=broker)
app.conf.update(
    task_acks_late=acks_late,
    task_default_queue=config["queueName"],
    task_ignore_result=True,
    broker_transport_options=transport,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
    # The protocol's lines go to the real stdout, not through Celery's logger.
    worker_redirect_stdouts=False,
)


def job_number(args):
    return int(args[0])


if config["role"] == "producer":

    def enqueue(j):
        app.send_task("fc.job", args=[j], task_id=f"job-{j}", queue=config["queueName"])

    serve_producer(config, library, ATTEMPT, enqueue)
    sys.exit(0)

events = WorkerEvents(config)


@app.task(bind=True, name="fc.job")
def fc_job(self, j):
    events.handle(int(j), self.request.retries + 1)


@task_success.connect
def on_success(sender=None, **_):
    events.completed(job_number(sender.request.args), sender.request.retries + 1)


def stop():
    # Celery's own warm shutdown (SIGTERM); a worker that does not end within 3 s is ended.
    threading.Timer(3.0, lambda: os._exit(0)).start()
    os.kill(os.getpid(), signal.SIGTERM)



worker = app.Worker(pool="solo", concurrency=1, queues=[config["queueName"]], loglevel="WARNING",
                    without_heartbeat=True, without_gossip=True, without_mingle=True, quiet=True)
ready(config, library, ATTEMPT)
stop_when_stdin_ends(stop)
try:
    worker.start()
finally:
    events.close()
    log("celery worker stopped")
