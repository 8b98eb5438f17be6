"""The job RQ's workers run for fencecheck (rq_queue.py): RQ imports a job's function by its dotted name
in the process that performs it (a forked work horse), so it lives in a module of its own. Each job's
handler prints the protocol's events from the process that runs it; the success callback reports the
completion (RQ runs it after the job returned, in the same process)."""
from fencecheck_queue_protocol import WorkerEvents, read_config

_events = None


def _worker_events():
    # One per process: a work horse is a fresh fork for every job.
    global _events
    if _events is None:
        _events = WorkerEvents(read_config())
    return _events


def fc_job(j):
    # RQ keeps no attempt number of a job: attempt 0, announced as none.
    _worker_events().handle(int(j), 0)
    _worker_events().close()


def on_success(job, connection, result, *args, **kwargs):
    _worker_events().completed(int(job.args[0]), 0)
