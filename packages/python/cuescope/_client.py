"""The client: validation, the buffer, the background sender, retries, stats and exit."""

import atexit
import collections
import email.utils
import json
import logging
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Deque, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from ._ids import new_id
from ._schema import validate
from .types import (
    CompactionOutcome,
    ContextParts,
    Copy,
    Mode,
    ModelActionKind,
    Policy,
    Reminder,
    RunStatus,
    SubmissionOutcome,
    SubmissionPurpose,
)

__all__ = ["Cuescope", "Run", "CuescopeError", "CuescopeStats", "ErrorKind", "retry_delay", "parse_retry_after"]

logger = logging.getLogger("cuescope")

ErrorKind = Literal["invalid", "rejected", "failed", "dropped"]
#: An event's time: an aware datetime, or an RFC 3339 string sent as it is.
When = Union[datetime, str, None]

RUN_LEVEL = ("run.started", "run.ended")
#: The most events the server takes in one request.
SERVER_BATCH_LIMIT = 1000


class CuescopeError(Exception):
    """A problem the client found or was told about.

    ``kind`` is ``"invalid"`` (an event failed validation, or the client is closed), ``"rejected"``
    (the server refused events: a per-event error, or a 4xx for the whole batch), ``"failed"`` (a
    batch failed after every retry) or ``"dropped"`` (the buffer was full: the oldest events were
    dropped). ``event_ids`` are the events concerned; ``status`` the HTTP status, when there was one.
    """

    def __init__(self, message: str, kind: ErrorKind, event_ids: Sequence[str] = (), status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind: ErrorKind = kind
        self.event_ids: Tuple[str, ...] = tuple(event_ids)
        self.status = status


@dataclass(frozen=True)
class CuescopeStats:
    """The client's counters, as the TypeScript SDK's ``CuescopeStats``.

    Read them as attributes (``stats.sent``) or by name (``stats["sent"]``).
    """

    #: Events handed to the server at least once.
    sent: int
    #: Events the server holds: answered created or duplicate.
    acknowledged: int
    #: Of those, answered duplicate (a re-send of an event the server already had).
    duplicates: int
    #: Events the server refused (a per-event error, or a 4xx for the whole batch).
    rejected: int
    #: Events that left no trace: oldest dropped from a full buffer, or their batch failed after every retry.
    dropped: int
    #: Events that failed validation in production mode (reported, never sent).
    invalid: int
    #: Requests sent again after a network error, a time-out, 429 or 5xx.
    retries: int
    #: Events waiting or in flight.
    buffered: int

    def __getitem__(self, name: str) -> int:
        return int(getattr(self, name))

    def as_dict(self) -> Dict[str, int]:
        return asdict(self)


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` as seconds from now (delta-seconds or an HTTP date); None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_delay(
    attempt: int,
    retry_after: Optional[str],
    *,
    base: float = 0.25,
    max_delay: float = 15.0,
    max_retry_after: float = 60.0,
    rand: Callable[[], float] = random.random,
) -> float:
    """The wait in seconds before retry ``attempt`` (1-based), as lib/client/retry-policy.ts computes it.

    Full jitter: a uniformly random time below ``min(max_delay, base × 2^(attempt−1))``, so clients
    that failed together do not retry together; never shorter than the server's ``Retry-After``,
    which is honoured up to ``max_retry_after``.
    """
    cap = min(max_delay, base * 2 ** (attempt - 1))
    jitter = rand() * cap
    after = parse_retry_after(retry_after)
    return jitter if after is None else max(jitter, min(after, max_retry_after))


def is_retryable_status(status: int) -> bool:
    """Statuses worth sending the same batch again for: every 5xx, and 429."""
    return status == 429 or 500 <= status <= 599


def _timestamp(at: When) -> str:
    if at is None:
        at = datetime.now(timezone.utc)
    if isinstance(at, str):
        return at
    if isinstance(at, datetime):
        if at.tzinfo is None or at.utcoffset() is None:
            raise ValueError("at: a naive datetime has no zone; pass an aware one (e.g. datetime.now(timezone.utc))")
        return at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    raise ValueError(f"at: expected a datetime or an RFC 3339 string, got {type(at).__name__}")


def _body(**fields: Any) -> Dict[str, Any]:
    """A body from keyword arguments: snake_case names → the contract's camelCase, None left out."""
    out: Dict[str, Any] = {}
    for name, value in fields.items():
        if value is None:
            continue
        head, *rest = name.split("_")
        out[head + "".join(part.capitalize() for part in rest)] = value
    return out


def _error_message(text: str) -> str:
    try:
        message = json.loads(text)["error"]["message"]
        return str(message)
    except Exception:
        return text[:500]


class _Pending:
    __slots__ = ("id", "json", "seq")

    def __init__(self, event_id: str, encoded: str, seq: int) -> None:
        self.id = event_id
        self.json = encoded
        self.seq = seq


class Cuescope:
    """A Cuescope client: validates events, buffers them and sends them in batches from one background thread.

    Args:
        url: The server's base URL; events go to ``POST {url}/api/v1/ingest``.
        api_key: A project's API key (``Authorization: Bearer``).
        batch_size: Events per request (at most 1,000, the server's limit).
        flush_interval: The longest an event waits in the buffer before a send, in seconds.
        max_buffer: The buffer's bound: beyond it the oldest unsent events are dropped (``dropped``).
        max_retries: Retries of one request after the first, on network errors, time-outs, 429 and 5xx.
        retry_delay: The first backoff cap in seconds, doubling per retry up to ``max_retry_delay``.
        max_retry_delay: The largest backoff cap in seconds.
        request_timeout: One request's socket time limit in seconds; a request that runs over is retried.
        mode: ``"production"``: an invalid event is reported to ``on_error``, counted ``invalid`` and
            never sent; ``"development"``: it raises ``CuescopeError`` at the call site.
        on_error: Called with a ``CuescopeError`` for every problem the client does not raise (from
            the recording thread or the sender thread); default: a warning on the ``cuescope`` logger.
        flush_at_exit: Send what is buffered when the interpreter exits (``atexit``).
    """

    def __init__(
        self,
        url: str,
        api_key: str,
        *,
        batch_size: int = 100,
        flush_interval: float = 1.0,
        max_buffer: int = 10_000,
        max_retries: int = 8,
        retry_delay: float = 0.25,
        max_retry_delay: float = 15.0,
        request_timeout: float = 30.0,
        mode: Mode = "production",
        on_error: Optional[Callable[[CuescopeError], None]] = None,
        flush_at_exit: bool = True,
    ) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"url: expected an http(s) base URL, got {url!r}")
        if not isinstance(api_key, str) or api_key == "":
            raise ValueError("api_key: expected a non-empty string")
        if not 1 <= batch_size <= SERVER_BATCH_LIMIT:
            raise ValueError(f"batch_size: expected 1-{SERVER_BATCH_LIMIT}, got {batch_size}")
        if max_buffer < 1:
            raise ValueError(f"max_buffer: expected >= 1, got {max_buffer}")
        if flush_interval < 0 or max_retries < 0 or retry_delay < 0 or max_retry_delay < 0 or request_timeout <= 0:
            raise ValueError("flush_interval, max_retries, retry_delay and max_retry_delay must be >= 0, request_timeout > 0")
        if mode not in ("production", "development"):
            raise ValueError(f'mode: expected "production" or "development", got {mode!r}')
        self.endpoint = urllib.parse.urljoin(url, "/api/v1/ingest")
        self._api_key = api_key
        self._batch_size = batch_size
        self._flush_interval = flush_interval
        self._max_buffer = max_buffer
        self._max_retries = max_retries
        self._retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._request_timeout = request_timeout
        self.mode: Mode = mode
        self._on_error = on_error

        self._cond = threading.Condition(threading.Lock())
        self._buffer: Deque[_Pending] = collections.deque()
        self._in_flight: List[_Pending] = []
        self._next_seq = 0
        self._due = 0.0  # when the oldest waiting event must be sent (monotonic seconds)
        self._pumping = False  # sending back to back until the buffer is empty
        self._urgent = 0  # flush() callers waiting: send now
        self._stopping = False
        self._closed = False
        self._drop_episode = False
        self._thread: Optional[threading.Thread] = None
        self._counters = dict(sent=0, acknowledged=0, duplicates=0, rejected=0, dropped=0, invalid=0, retries=0)
        self._flush_at_exit = flush_at_exit
        if flush_at_exit:
            atexit.register(self._at_exit)

    # ---- public API -------------------------------------------------------------------------

    def start_run(
        self,
        *,
        task: str,
        policy: Policy,
        run_id: Optional[str] = None,
        agent: Optional[str] = None,
        model: Optional[str] = None,
        copy: Optional[Copy] = None,
    ) -> "Run":
        """Records ``run.started`` and returns the ``Run`` to record its turns with.

        The run id is generated (26 characters, ULID-like, as the TypeScript SDK makes it) unless given.
        """
        rid = new_id() if run_id is None else run_id
        self._record(rid, "run.started", _body(task=task, agent=agent, model=model, policy=policy, copy=copy), None, None, None)
        return Run(self, rid)

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Sends what is buffered now; waits until every event recorded so far is acknowledged, refused or given up on.

        Returns False when ``timeout`` (seconds) ran out first (the events stay buffered and are still sent).
        """
        if threading.current_thread() is self._thread:
            return False  # called from on_error on the sender thread: it cannot wait for itself
        with self._cond:
            target = self._next_seq
            self._urgent += 1
            self._cond.notify_all()
            try:
                return self._cond.wait_for(lambda: self._low_water() >= target, timeout)
            finally:
                self._urgent -= 1

    def close(self, timeout: Optional[float] = None) -> bool:
        """Refuses new events, flushes (at most ``timeout`` seconds) and stops the sender thread.

        Returns True when everything recorded was settled. Recording after close is an invalid event
        (raises in development, reported in production). Closing twice is harmless.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._closed = True
        done = self.flush(timeout)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        if self._flush_at_exit:
            atexit.unregister(self._at_exit)
            self._flush_at_exit = False
        return done

    def stats(self) -> CuescopeStats:
        """The counters now (see ``CuescopeStats``)."""
        with self._cond:
            return CuescopeStats(**self._counters, buffered=len(self._buffer) + len(self._in_flight))

    def __enter__(self) -> "Cuescope":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- recording --------------------------------------------------------------------------

    def _record(self, run_id: str, type: str, body: Any, turn: Optional[int], at: When, event_id: Optional[str]) -> str:
        eid = new_id() if event_id is None else event_id
        if self._closed:
            return self._refuse(f"cannot record {type}: the client is closed", eid)
        try:
            ts = _timestamp(at)
        except ValueError as error:
            return self._refuse(f"invalid {type} event {eid}: {error}", eid)
        event: Dict[str, Any] = {"id": eid, "runId": run_id, "type": type, "ts": ts}
        if turn is not None and type not in RUN_LEVEL:
            event["turn"] = turn
        event["body"] = body
        problems = validate(event)
        if problems:
            return self._refuse(f"invalid {type} event {eid}: {'; '.join(problems)}", eid)
        try:
            # Encoded once, now: a re-send is byte for byte the first attempt, whatever the caller changes later.
            encoded = json.dumps(event, allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError) as error:
            return self._refuse(f"invalid {type} event {eid}: not JSON: {error}", eid)
        self._enqueue(eid, encoded)
        return eid

    def _refuse(self, message: str, event_id: str) -> str:
        error = CuescopeError(message, "invalid", [event_id])
        if self.mode == "development":
            raise error
        with self._cond:
            self._counters["invalid"] += 1
        self._report(error)
        return event_id

    def _enqueue(self, event_id: str, encoded: str) -> None:
        dropped: List[str] = []
        report = False
        with self._cond:
            if not self._buffer and not self._pumping:
                self._due = time.monotonic() + self._flush_interval
            self._buffer.append(_Pending(event_id, encoded, self._next_seq))
            self._next_seq += 1
            while len(self._buffer) > self._max_buffer:
                dropped.append(self._buffer.popleft().id)
            if dropped:
                self._counters["dropped"] += len(dropped)
                report = not self._drop_episode
                self._drop_episode = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cuescope-sender", daemon=True)
                self._thread.start()
            self._cond.notify_all()
        if report:
            self._report(
                CuescopeError(
                    f"buffer full ({self._max_buffer} events): dropping the oldest unsent events until the server accepts again",
                    "dropped",
                    dropped,
                )
            )

    def _report(self, error: CuescopeError) -> None:
        try:
            if self._on_error is not None:
                self._on_error(error)
            else:
                logger.warning("[cuescope] %s", error.message)
        except Exception:
            pass  # on_error must never break the agent

    def _low_water(self) -> int:
        """The sequence number of the oldest event not yet settled (every one before it is)."""
        if self._in_flight:
            return self._in_flight[0].seq
        if self._buffer:
            return self._buffer[0].seq
        return self._next_seq

    def _at_exit(self) -> None:
        self.close()

    # ---- sending (the background thread) ----------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._buffer:
                        if self._pumping or self._urgent or self._stopping or len(self._buffer) >= self._batch_size:
                            break
                        remaining = self._due - time.monotonic()
                        if remaining <= 0:
                            break
                        self._cond.wait(remaining)
                    else:
                        self._pumping = False
                        if self._stopping:
                            self._thread = None
                            return
                        self._cond.wait()
                count = min(self._batch_size, len(self._buffer))
                batch = [self._buffer.popleft() for _ in range(count)]
                self._in_flight = batch
                self._pumping = True
            try:
                self._send(batch)
            except Exception as error:  # never let the thread die: count and report the batch
                with self._cond:
                    self._counters["dropped"] += len(batch)
                self._report(CuescopeError(f"sending a batch failed: {error!r}", "failed", [p.id for p in batch]))
            finally:
                with self._cond:
                    self._in_flight = []
                    self._cond.notify_all()

    def _post(self, data: bytes) -> Tuple[Optional[int], str, Optional[str], str]:
        """One attempt: (status or None for a network error, answer text, Retry-After, reason)."""
        request = urllib.request.Request(
            self.endpoint,
            data=data,
            method="POST",
            headers={"content-type": "application/json", "authorization": f"Bearer {self._api_key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self._request_timeout) as response:
                text = response.read().decode("utf-8", "replace")
                return response.status, text, response.headers.get("retry-after"), f"{self.endpoint} answered {response.status}"
        except urllib.error.HTTPError as error:
            try:
                text = error.read().decode("utf-8", "replace")
            except Exception:
                text = ""
            return error.code, text, error.headers.get("retry-after") if error.headers else None, f"{self.endpoint} answered {error.code}"
        except Exception as error:
            reason = error.reason if isinstance(error, urllib.error.URLError) else error
            if isinstance(reason, (socket.timeout, TimeoutError)):
                return None, "", None, f"{self.endpoint} did not answer within {self._request_timeout} s"
            return None, "", None, f"cannot reach {self.endpoint}: {reason}"

    def _send(self, batch: List[_Pending]) -> None:
        ids = [p.id for p in batch]
        data = ('{"batch":[' + ",".join(p.json for p in batch) + "]}").encode("utf-8")
        with self._cond:
            self._counters["sent"] += len(batch)
        attempt = 1
        while True:
            status, text, retry_after, reason = self._post(data)
            if status in (200, 207):
                with self._cond:
                    self._drop_episode = False
                self._settle(batch, text)
                return
            retryable = status is None or is_retryable_status(status)
            if retryable and attempt <= self._max_retries:
                with self._cond:
                    self._counters["retries"] += 1
                time.sleep(retry_delay(attempt, retry_after, base=self._retry_delay, max_delay=self._max_retry_delay))
                attempt += 1
                continue
            message = f"{reason}: {_error_message(text)}" if text else reason
            if retryable:
                with self._cond:
                    self._counters["dropped"] += len(batch)
                self._report(
                    CuescopeError(f"{message} (gave up after {attempt} attempts; {len(batch)} events lost)", "failed", ids, status)
                )
            else:
                with self._cond:
                    self._counters["rejected"] += len(batch)
                self._report(CuescopeError(f"{message} ({len(batch)} events rejected, not retried)", "rejected", ids, status))
            return

    def _settle(self, batch: List[_Pending], text: str) -> None:
        try:
            results = json.loads(text).get("results")
        except Exception:
            results = None
        if not isinstance(results, list):
            with self._cond:
                self._counters["acknowledged"] += len(batch)
            return
        errors: List[CuescopeError] = []
        with self._cond:
            for i, item in enumerate(batch):
                result = results[i] if i < len(results) and isinstance(results[i], Mapping) else {}
                status = result.get("status")
                if status == "created":
                    self._counters["acknowledged"] += 1
                elif status == "duplicate":
                    self._counters["acknowledged"] += 1
                    self._counters["duplicates"] += 1
                else:
                    self._counters["rejected"] += 1
                    found = result.get("error")
                    problem: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
                    where = f" at {problem['path']}" if problem.get("path") else ""
                    message = problem.get("message", "no result")
                    errors.append(CuescopeError(f"event {item.id} rejected{where}: {message}", "rejected", [item.id]))
        for error in errors:
            self._report(error)


class Run:
    """One run: a method per event type of a turn, ``record`` for any type, ``end`` for ``run.ended``.

    Every method validates the event, buffers it and returns its id; ``turn`` is the turn it belongs
    to (an integer >= 0), ``at`` its time (default now), ``event_id`` an id to use instead of a new one.
    Body fields are keyword arguments in snake_case (``required_bytes`` → ``requiredBytes``); nested
    objects (reminder lists, ``context_parts``) are dicts written as the wire format writes them.
    A Run may be used from several threads.
    """

    def __init__(self, client: Cuescope, run_id: str) -> None:
        self._client = client
        self.run_id = run_id

    def __repr__(self) -> str:
        return f"Run({self.run_id!r})"

    def record(
        self,
        type: str,
        body: Mapping[str, Any],
        *,
        turn: Optional[int] = None,
        at: When = None,
        event_id: Optional[str] = None,
    ) -> str:
        """Records an event of any type with its body as the wire format writes it (camelCase keys)."""
        return self._client._record(self.run_id, type, body, turn, at, event_id)

    def end(self, status: RunStatus, *, reason: Optional[str] = None, at: When = None, event_id: Optional[str] = None) -> str:
        """Records ``run.ended``: ``status`` is ``"completed"``, ``"failed"`` or ``"stopped"``."""
        return self._client._record(self.run_id, "run.ended", _body(status=status, reason=reason), None, at, event_id)

    def meter_requests(self, *, turn: int, used: int, at: When = None, event_id: Optional[str] = None) -> str:
        """``meter.requests``: model requests that consumed budget so far (failed external requests and Reviewer dispatches included)."""
        return self._client._record(self.run_id, "meter.requests", _body(used=used), turn, at, event_id)

    def meter_time(self, *, turn: int, elapsed_ms: int, at: When = None, event_id: Optional[str] = None) -> str:
        """``meter.time``: milliseconds since the run started."""
        return self._client._record(self.run_id, "meter.time", _body(elapsed_ms=elapsed_ms), turn, at, event_id)

    def block_edited(
        self, *, turn: int, block_id: str, used: int, limit: Optional[int] = None, at: When = None, event_id: Optional[str] = None
    ) -> str:
        """``block.edited``: the edits used so far on a block, and its own edit limit when it has one."""
        return self._client._record(self.run_id, "block.edited", _body(block_id=block_id, used=used, limit=limit), turn, at, event_id)

    def context_compaction(
        self,
        *,
        turn: int,
        original_bytes: int,
        candidate_bytes: int,
        outcome: CompactionOutcome,
        at: When = None,
        event_id: Optional[str] = None,
    ) -> str:
        """``context.compaction``: a compaction's sizes and whether it was ``"adopted"`` or ``"rolled_back"``."""
        body = _body(original_bytes=original_bytes, candidate_bytes=candidate_bytes, outcome=outcome)
        return self._client._record(self.run_id, "context.compaction", body, turn, at, event_id)

    def request_final(
        self,
        *,
        turn: int,
        required_bytes: int,
        provider_tokens: Optional[int] = None,
        provider_cached_tokens: Optional[int] = None,
        context_parts: Optional[ContextParts] = None,
        at: When = None,
        event_id: Optional[str] = None,
    ) -> str:
        """``request.final``: the bytes the final request needs before reminders, the provider's token
        counts when it reported them (never estimates), and the bytes by part (summing to at most
        ``required_bytes``; the server checks that)."""
        body = _body(
            required_bytes=required_bytes,
            provider_tokens=provider_tokens,
            provider_cached_tokens=provider_cached_tokens,
            context_parts=context_parts,
        )
        return self._client._record(self.run_id, "request.final", body, turn, at, event_id)

    def request_submitted(
        self,
        *,
        turn: int,
        outcome: SubmissionOutcome,
        reminders: Optional[List[Reminder]] = None,
        counts_against_budget: Optional[bool] = None,
        purpose: Optional[SubmissionPurpose] = None,
        at: When = None,
        event_id: Optional[str] = None,
    ) -> str:
        """``request.submitted``: whether the request reached the model, the reminders the agent put in
        it, whether it used the requests budget (default true) and why it was sent."""
        body = _body(outcome=outcome, reminders=reminders, counts_against_budget=counts_against_budget, purpose=purpose)
        return self._client._record(self.run_id, "request.submitted", body, turn, at, event_id)

    def reminders_marked(self, *, turn: int, reminders: List[Reminder], at: When = None, event_id: Optional[str] = None) -> str:
        """``reminders.marked``: what the agent's own ledger marked as delivered."""
        return self._client._record(self.run_id, "reminders.marked", _body(reminders=reminders), turn, at, event_id)

    def reviewer_candidate(
        self, *, turn: int, candidate_id: str, checkpoint: Optional[int] = None, at: When = None, event_id: Optional[str] = None
    ) -> str:
        """``reviewer.candidate``: the coordinator's Reviewer candidate, and the checkpoint that raised it."""
        body = _body(candidate_id=candidate_id, checkpoint=checkpoint)
        return self._client._record(self.run_id, "reviewer.candidate", body, turn, at, event_id)

    def reviewer_admission(
        self, *, turn: int, candidate_id: str, granted: bool, reasons: List[str], at: When = None, event_id: Optional[str] = None
    ) -> str:
        """``reviewer.admission``: the runtime's decision on a candidate and its reasons."""
        body = _body(candidate_id=candidate_id, granted=granted, reasons=reasons)
        return self._client._record(self.run_id, "reviewer.admission", body, turn, at, event_id)

    def reviewer_dispatched(
        self, *, turn: int, candidate_id: str, dispatch_id: str, at: When = None, event_id: Optional[str] = None
    ) -> str:
        """``reviewer.dispatched``: an admitted candidate was dispatched."""
        body = _body(candidate_id=candidate_id, dispatch_id=dispatch_id)
        return self._client._record(self.run_id, "reviewer.dispatched", body, turn, at, event_id)

    def reviewer_completed(
        self,
        *,
        turn: int,
        dispatch_id: str,
        verdict: Optional[str] = None,
        notes: Optional[str] = None,
        at: When = None,
        event_id: Optional[str] = None,
    ) -> str:
        """``reviewer.completed``: a dispatch completed, with the Reviewer's verdict and notes."""
        body = _body(dispatch_id=dispatch_id, verdict=verdict, notes=notes)
        return self._client._record(self.run_id, "reviewer.completed", body, turn, at, event_id)

    def reviewer_cancelled(self, *, turn: int, candidate_id: str, reason: str, at: When = None, event_id: Optional[str] = None) -> str:
        """``reviewer.cancelled``: a candidate was withdrawn, and why."""
        body = _body(candidate_id=candidate_id, reason=reason)
        return self._client._record(self.run_id, "reviewer.cancelled", body, turn, at, event_id)

    def user_notified(self, *, turn: int, channel: str, message: str, at: When = None, event_id: Optional[str] = None) -> str:
        """``user.notified``: where the user was told, and what."""
        body = _body(channel=channel, message=message)
        return self._client._record(self.run_id, "user.notified", body, turn, at, event_id)

    def model_action(
        self, *, turn: int, kind: ModelActionKind, block_id: Optional[str] = None, at: When = None, event_id: Optional[str] = None
    ) -> str:
        """``model.action``: what the model did after the request, and the block acted on."""
        body = _body(kind=kind, block_id=block_id)
        return self._client._record(self.run_id, "model.action", body, turn, at, event_id)
