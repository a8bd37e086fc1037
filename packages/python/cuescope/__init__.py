"""Cuescope: send an LLM agent's reminder telemetry (telemetry format v1) to a Cuescope server.

    from cuescope import Cuescope

    with Cuescope("http://localhost:3000", api_key) as cs:
        run = cs.start_run(task="Compare VOO and IVV fees", policy={"requests": {"limit": 60, "stages": [0.5, 0.9]}})
        run.meter_requests(turn=1, used=1)
        run.request_final(turn=1, required_bytes=4200)
        run.end("completed")

See README.md for the options, the counters, errors, threads and what happens at exit.
"""

from ._client import Cuescope, CuescopeError, CuescopeStats, ErrorKind, Run, parse_retry_after, retry_delay
from ._ids import new_id
from ._schema import event_schema, validate

__version__ = "0.1.0"

__all__ = [
    "Cuescope",
    "CuescopeError",
    "CuescopeStats",
    "ErrorKind",
    "Run",
    "event_schema",
    "new_id",
    "parse_retry_after",
    "retry_delay",
    "validate",
    "__version__",
]
