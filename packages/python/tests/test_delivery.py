"""Delivery against the real Cuescope server: faults, threads, the buffer, exit, and what the server refuses.

Every check reads back what the server stored (GET /api/v1/runs/:runId/events).
"""

import collections
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from conftest import PACKAGE_DIR, POLICY

from cuescope import Cuescope, CuescopeError


def client(url, key, **options) -> Cuescope:
    # No timer unless a test wants one: batches are cut by size and flush(), so request counts are exact.
    options.setdefault("flush_interval", 3600)
    options.setdefault("retry_delay", 0.02)
    options.setdefault("flush_at_exit", False)
    return Cuescope(url, key, **options)


def record_turns(run, turns: int) -> list:
    ids = []
    for turn in range(1, turns + 1):
        ids.append(run.meter_requests(turn=turn, used=turn))
        ids.append(run.request_final(turn=turn, required_bytes=1000 + turn, context_parts={"system": 100, "history": 500}))
        ids.append(run.request_submitted(turn=turn, outcome="ok", reminders=[{"key": "requests", "stage": 1}]))
    return ids


def stored_once(server, run_id, expected_ids):
    """The server holds exactly these events of the run, each once."""
    stored = server.event_ids(run_id)
    repeats = [i for i, n in collections.Counter(stored).items() if n > 1]
    assert not repeats, f"stored twice: {repeats}"
    assert sorted(stored) == sorted(expected_ids)


def test_every_method_records_its_event_type_with_the_contracts_body(server):
    cs = client(server.url, server.key, mode="development")
    run = cs.start_run(task="all types", policy=POLICY, agent="py-agent", model="m-small", copy={"requests": {"*": "{used} of {limit}"}})
    run.meter_requests(turn=1, used=1)
    run.meter_time(turn=1, elapsed_ms=1500)
    run.block_edited(turn=1, block_id="b1", used=1, limit=3)
    run.context_compaction(turn=1, original_bytes=9000, candidate_bytes=4000, outcome="adopted")
    run.request_final(turn=1, required_bytes=4200, provider_tokens=1000, provider_cached_tokens=200, context_parts={"system": 900})
    run.request_submitted(turn=1, outcome="ok", reminders=[{"key": "requests", "subject": None, "stage": 1}], counts_against_budget=False, purpose="retry")
    run.reminders_marked(turn=1, reminders=[{"key": "edits", "subject": "b1", "stage": 2}])
    run.reviewer_candidate(turn=1, candidate_id="c1", checkpoint=1)
    run.reviewer_admission(turn=1, candidate_id="c1", granted=True, reasons=["budget ok"])
    run.reviewer_dispatched(turn=1, candidate_id="c1", dispatch_id="d1")
    run.reviewer_completed(turn=2, dispatch_id="d1", verdict="pass", notes="fine")
    run.reviewer_cancelled(turn=2, candidate_id="c2", reason="superseded")
    run.user_notified(turn=2, channel="chat", message="done")
    run.model_action(turn=2, kind="edit_block", block_id="b1")
    run.record("meter.requests", {"used": 2}, turn=2)
    run.end("completed", reason="answered")
    assert cs.flush(timeout=20)
    cs.close()
    events = {(e["type"], e.get("turn")): e for e in server.events(run.run_id)}
    assert len(events) == 17
    started = events[("run.started", None)]["body"]
    assert started["task"] == "all types" and started["agent"] == "py-agent" and started["copy"] == {"requests": {"*": "{used} of {limit}"}}
    assert events[("meter.time", 1)]["body"] == {"elapsedMs": 1500}
    assert events[("block.edited", 1)]["body"] == {"blockId": "b1", "used": 1, "limit": 3}
    assert events[("request.final", 1)]["body"]["providerCachedTokens"] == 200
    assert events[("request.submitted", 1)]["body"]["countsAgainstBudget"] is False
    assert events[("reviewer.completed", 2)]["body"] == {"dispatchId": "d1", "verdict": "pass", "notes": "fine"}
    assert events[("model.action", 2)]["body"] == {"kind": "edit_block", "blockId": "b1"}
    assert events[("run.ended", None)]["body"] == {"status": "completed", "reason": "answered"}
    assert cs.stats().acknowledged == 17 and cs.stats().buffered == 0


def wait_until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_batches_are_cut_by_size_and_by_time_without_a_flush(server, proxy):
    proxy.latency = 0.3  # every event is recorded while the first batch is on its way
    cs = client(proxy.url, server.key, batch_size=5)
    run = cs.start_run(task="by size", policy=POLICY)
    ids = [run.meter_requests(turn=t, used=t) for t in range(10)]
    # the 5th event fills a batch, which is sent at once; then the sender drains what came meanwhile, 5 at a time
    wait_until(lambda: cs.stats().acknowledged == 11)
    assert proxy.batch_sizes == [5, 5, 1]
    proxy.latency = 0
    stored_once(server, run.run_id, proxy.sent_ids)
    assert set(ids) <= set(proxy.sent_ids)
    cs.close()

    timed = client(proxy.url, server.key, flush_interval=0.2)
    started = time.monotonic()
    run = timed.start_run(task="by time", policy=POLICY)
    ids = [run.meter_requests(turn=t, used=t) for t in range(3)]
    wait_until(lambda: timed.stats().acknowledged == 4)
    assert time.monotonic() - started >= 0.2
    stored_once(server, run.run_id, [proxy.sent_ids[-4], *ids])
    timed.close()


def test_503_is_retried_and_nothing_is_stored_twice(server, proxy):
    proxy.fail_first = 3
    cs = client(proxy.url, server.key, batch_size=20)
    run = cs.start_run(task="503", policy=POLICY)
    ids = record_turns(run, 10)
    run.end("completed")
    assert cs.flush(timeout=20)
    stats = cs.stats()
    assert stats.retries == 3
    assert stats.acknowledged == 32 and stats.duplicates == 0 and stats.dropped == 0 and stats.rejected == 0
    assert proxy.requests == 3 + 2  # the first batch three times refused, then two batches of 20 and 12
    events = server.events(run.run_id)
    assert len(events) == 32 and len({e["id"] for e in events}) == 32
    assert set(ids) <= {e["id"] for e in events}
    cs.close()


def test_retry_after_is_waited(server, proxy):
    proxy.fail_first, proxy.retry_after = 1, "1"
    cs = client(proxy.url, server.key, retry_delay=0.001)
    run = cs.start_run(task="retry-after", policy=POLICY)
    assert cs.flush(timeout=20)
    assert proxy.request_times[1] - proxy.request_times[0] >= 0.95
    stored_once(server, run.run_id, proxy.sent_ids[:1])
    cs.close()


def test_a_slow_server_is_retried_with_the_same_ids_and_nothing_is_lost_or_doubled(server, proxy):
    # The first request is stored, then answered after the client's time limit: the client gives up
    # on it and sends the same batch again, which the server answers duplicate.
    proxy.slow_first, proxy.delay = 1, 1.5
    cs = client(proxy.url, server.key, request_timeout=0.5)
    run = cs.start_run(task="slow", policy=POLICY)
    ids = record_turns(run, 5)
    assert cs.flush(timeout=20)
    stats = cs.stats()
    assert stats.retries >= 1
    assert stats.acknowledged == 16 and stats.duplicates == 16
    first_batch = proxy.sent_ids[:16]
    assert proxy.sent_ids[16:32] == first_batch  # the re-send carries the same event ids
    stored_once(server, run.run_id, first_batch)
    assert set(ids) <= set(first_batch)
    cs.close()


def test_a_closed_connection_is_retried(server, proxy):
    proxy.close_first = 2
    cs = client(proxy.url, server.key)
    run = cs.start_run(task="closed", policy=POLICY)
    record_turns(run, 3)
    assert cs.flush(timeout=20)
    assert cs.stats().retries == 2 and cs.stats().acknowledged == 10
    stored_once(server, run.run_id, proxy.sent_ids[:10])
    cs.close()


def test_a_batch_that_fails_every_retry_is_reported_and_counted_dropped(server, proxy, errors):
    proxy.fail_first = 100
    cs = client(proxy.url, server.key, max_retries=2, on_error=errors)
    run = cs.start_run(task="down", policy=POLICY)
    record_turns(run, 2)
    assert cs.flush(timeout=20)
    stats = cs.stats()
    assert (stats.sent, stats.dropped, stats.retries, stats.acknowledged, stats.buffered) == (7, 7, 2, 0, 0)
    assert proxy.requests == 3
    [failed] = errors.of("failed")
    assert failed.status == 503 and len(failed.event_ids) == 7 and "gave up after 3 attempts" in str(failed)
    assert server.event_ids(run.run_id) == []
    cs.close()


def test_a_bad_key_is_rejected_without_retries(server, errors):
    cs = client(server.url, "cs_not_a_key", on_error=errors)
    run = cs.start_run(task="bad key", policy=POLICY)
    record_turns(run, 1)
    assert cs.flush(timeout=20)
    stats = cs.stats()
    assert (stats.rejected, stats.retries, stats.acknowledged) == (4, 0, 0)
    [rejected] = errors.of("rejected")
    assert rejected.status == 401 and len(rejected.event_ids) == 4
    assert server.event_ids(run.run_id) == []
    cs.close()


def test_invalid_events_are_refused_before_sending(server, proxy, errors):
    # development: the call raises, naming the field; nothing of it is sent
    dev = client(proxy.url, server.key, mode="development")
    run = dev.start_run(task="dev invalid", policy=POLICY)
    with pytest.raises(CuescopeError) as raised:
        run.request_final(turn=1, required_bytes=-1)
    assert raised.value.kind == "invalid" and "body.requiredBytes" in raised.value.message
    bad_id = raised.value.event_ids[0]
    with pytest.raises(CuescopeError):
        run.request_submitted(turn=2, outcome="maybe")
    with pytest.raises(CuescopeError):
        run.meter_requests(turn=-1, used=1)
    with pytest.raises(CuescopeError):
        dev.start_run(task="no policy", policy=None)  # type: ignore[arg-type]
    assert dev.flush(timeout=20)
    assert dev.stats().invalid == 0 and dev.stats().sent == 1
    assert bad_id not in proxy.sent_ids and len(proxy.sent_ids) == 1
    stored_once(server, run.run_id, proxy.sent_ids)
    dev.close()

    # production: reported to on_error, counted invalid, never sent; the valid events go on
    prod = client(proxy.url, server.key, on_error=errors)
    run = prod.start_run(task="prod invalid", policy=POLICY)
    bad = [
        run.request_final(turn=1, required_bytes=-1),
        run.request_submitted(turn=1, outcome="maybe"),
        run.record("meter.requests", {"used": 1}),  # no turn
        run.record("no.such.type", {}, turn=1),
        run.model_action(turn=1, kind="tool_call", block_id=object()),  # type: ignore[arg-type]
    ]
    good = run.meter_requests(turn=1, used=1)
    assert prod.flush(timeout=20)
    assert prod.stats().invalid == 5 and prod.stats().sent == 2 and prod.stats().acknowledged == 2
    assert [e.event_ids[0] for e in errors.of("invalid")] == bad
    assert not set(bad) & set(proxy.sent_ids)
    started = proxy.sent_ids[-2]  # this run's run.started, sent with `good`
    stored_once(server, run.run_id, [started, good])
    prod.close()


def test_checks_beyond_the_json_schema_come_back_as_per_event_errors(server, errors):
    # The server's zod refinements (parts summing beyond requiredBytes, the timestamp's form) are not
    # JSON Schema: the client sends those events and the server refuses them one by one.
    cs = client(server.url, server.key, on_error=errors)
    run = cs.start_run(task="refinements", policy=POLICY)
    too_many_parts = run.request_final(turn=1, required_bytes=100, context_parts={"system": 80, "history": 80})
    bad_time = run.meter_requests(turn=1, used=1, at="yesterday")
    lone_surrogate = run.user_notified(turn=1, channel="chat", message="broken \ud800 text")
    fine = run.meter_requests(turn=2, used=2)
    assert cs.flush(timeout=20)
    stats = cs.stats()
    assert (stats.sent, stats.rejected, stats.acknowledged, stats.invalid) == (5, 3, 2, 0)
    rejected = {e.event_ids[0]: e.message for e in errors.of("rejected")}
    assert set(rejected) == {too_many_parts, bad_time, lone_surrogate}
    assert "contextParts" in rejected[too_many_parts] and "ts" in rejected[bad_time]
    assert fine in server.event_ids(run.run_id) and too_many_parts not in server.event_ids(run.run_id)
    cs.close()


def test_eight_threads_recording_at_once_store_every_event_exactly_once(server):
    cs = client(server.url, server.key, batch_size=50, flush_interval=0.05)
    run = cs.start_run(task="threads", policy=POLICY)
    per_thread = 150
    ids = [[] for _ in range(8)]
    start = threading.Barrier(8)

    def work(k):
        start.wait()
        for i in range(per_thread):
            ids[k].append(run.meter_requests(turn=k * per_thread + i, used=i))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run.end("completed")
    assert cs.flush(timeout=30)
    every = [i for chunk in ids for i in chunk]
    assert len(set(every)) == 8 * per_thread  # ids are unique across threads
    for chunk in ids:
        assert chunk == sorted(chunk)  # and increasing within each
    stats = cs.stats()
    assert stats.acknowledged == 8 * per_thread + 2 and stats.duplicates == 0 and stats.buffered == 0
    stored = server.event_ids(run.run_id)
    assert len(stored) == len(set(stored)) == 8 * per_thread + 2
    assert set(every) <= set(stored)
    cs.close()


def test_a_full_buffer_drops_the_oldest_with_a_counter(server, errors):
    cs = client(server.url, server.key, max_buffer=10, batch_size=1000, flush_interval=3600, on_error=errors)
    run = cs.start_run(task="overflow", policy=POLICY)
    ids = [run.meter_requests(turn=t, used=t) for t in range(24)]
    stats = cs.stats()
    assert (stats.dropped, stats.buffered, stats.sent) == (15, 10, 0)
    [dropped] = errors.of("dropped")  # reported once per episode
    assert "buffer full (10 events)" in dropped.message
    assert cs.flush(timeout=20)
    stored_once(server, run.run_id, ids[-10:])
    cs.close()


def test_the_context_manager_sends_everything_and_closes(server, errors):
    with client(server.url, server.key, flush_interval=3600, on_error=errors) as cs:
        run = cs.start_run(task="with", policy=POLICY)
        ids = record_turns(run, 4)
        assert cs.stats().sent == 0
    assert cs.stats().acknowledged == 13 and cs.stats().buffered == 0
    stored = server.event_ids(run.run_id)
    assert len(stored) == len(set(stored)) == 13 and set(ids) <= set(stored)
    late = run.meter_requests(turn=9, used=9)  # after close: refused (production: reported)
    assert cs.stats().invalid == 1 and errors.of("invalid")[0].event_ids == (late,)
    assert "closed" in errors.of("invalid")[0].message

    # an exception inside the block still sends what was recorded, and propagates
    with pytest.raises(RuntimeError):
        with client(server.url, server.key, flush_interval=3600) as cs2:
            run2 = cs2.start_run(task="with error", policy=POLICY)
            raise RuntimeError("agent crashed")
    assert len(server.event_ids(run2.run_id)) == 1
    dev = client(server.url, server.key, mode="development")
    dev.close()
    with pytest.raises(CuescopeError):
        dev.start_run(task="late", policy=POLICY)


EXIT_SCRIPT = """
import sys, time
from cuescope import Cuescope
cs = Cuescope(sys.argv[1], sys.argv[2], batch_size=10, flush_interval=3600)
run = cs.start_run(task="exit", policy={{}})
print(run.run_id, flush=True)
for turn in range(24):
    run.meter_requests(turn=turn, used=turn)
time.sleep(0.05)  # the first batches are on their way (the proxy holds each {latency} s)
{ending}
"""


@pytest.mark.parametrize(
    "ending",
    ["pass  # main returns", "raise SystemExit(3)", "raise RuntimeError('the agent crashed')"],
    ids=["return", "sys.exit", "uncaught exception"],
)
def test_exit_mid_batch_sends_what_is_buffered_and_in_flight(server, proxy, ending):
    # 25 events in batches of 10: at exit two batches are in flight (the proxy holds each request)
    # and five events wait in the buffer. The atexit flush delivers them all, each once.
    proxy.latency = 0.3
    script = EXIT_SCRIPT.format(ending=ending, latency=proxy.latency)
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_DIR), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", script, proxy.url, server.key], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == {"pass  # main returns": 0, "raise SystemExit(3)": 3}.get(ending, 1), done.stderr
    run_id = done.stdout.strip()
    stored = server.event_ids(run_id)
    assert len(stored) == len(set(stored)) == 25
    assert proxy.requests == 3


def test_exit_without_flush_at_exit_loses_the_buffer(server, proxy):
    # the counterpart: flush_at_exit=False sends nothing that was still buffered
    script = textwrap.dedent(
        """
        import sys
        from cuescope import Cuescope
        cs = Cuescope(sys.argv[1], sys.argv[2], flush_interval=3600, flush_at_exit=False)
        print(cs.start_run(task="no exit flush", policy={}).run_id)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_DIR), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", script, proxy.url, server.key], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert server.event_ids(done.stdout.strip()) == [] and proxy.requests == 0
