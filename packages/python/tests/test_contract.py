"""What needs no server: ids, the shipped schema and its validator, the Run's signatures, the backoff."""

import inspect
import re
import time
from datetime import datetime, timedelta, timezone

import pytest

import cuescope
from cuescope import Cuescope, CuescopeError, Run, event_schema, new_id, retry_delay, validate
from cuescope._schema import ANNOTATIONS, SUPPORTED_KEYWORDS, keywords_used

ID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def branches():
    return {b["properties"]["type"]["const"]: b for b in event_schema()["oneOf"]}


def test_ids_are_ulid_like_and_strictly_increasing():
    ids = [new_id() for _ in range(5000)]
    assert all(ID.match(i) for i in ids)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # The time part is the milliseconds in Crockford base32, as packages/sdk/src/ids.ts writes it.
    alphabet = cuescope._ids.ALPHABET
    assert alphabet == "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    ms = 0
    for digit in ids[-1][:10]:
        ms = ms * 32 + alphabet.index(digit)
    assert abs(ms - time.time() * 1000) < 5000
    # a clock that goes back keeps the last time: still increasing
    assert new_id(now_ms=1) > ids[-1]


def test_the_validator_supports_every_keyword_the_shipped_schema_uses():
    used = keywords_used(event_schema())
    unsupported = used - SUPPORTED_KEYWORDS - ANNOTATIONS
    assert not unsupported, (
        f"the event schema uses keywords the Python validator does not check: {sorted(unsupported)}; "
        "teach cuescope/_schema.py to check them (a contract change must not silently skip a check)"
    )
    # the walk itself sees keywords nested in properties, items and unions
    assert {"oneOf", "properties", "required", "minLength", "exclusiveMinimum", "enum", "items"} <= used


def test_the_keyword_walk_finds_a_keyword_it_does_not_know():
    schema = {"oneOf": [{"type": "object", "properties": {"a": {"items": {"pattern": "^x"}}}}]}
    assert "pattern" in keywords_used(schema) - SUPPORTED_KEYWORDS - ANNOTATIONS


def test_the_schema_covers_every_event_type_of_the_contract():
    assert set(branches()) == {
        "run.started",
        "meter.requests",
        "meter.time",
        "block.edited",
        "context.compaction",
        "request.final",
        "request.submitted",
        "reminders.marked",
        "reviewer.candidate",
        "reviewer.admission",
        "reviewer.dispatched",
        "reviewer.completed",
        "reviewer.cancelled",
        "user.notified",
        "model.action",
        "run.ended",
    }


ENVELOPE = {"turn", "at", "event_id", "self"}
#: run.started fields start_run does not take (record("run.started", ...) does): experiments are not in the Python SDK yet.
NOT_IN_START_RUN = {"experiment"}


@pytest.mark.parametrize("event_type", sorted(branches()))
def test_each_event_type_has_a_method_whose_keywords_are_its_body_fields(event_type):
    body = branches()[event_type]["properties"]["body"]
    fields = set(body["properties"])
    required = set(body.get("required", []))
    if event_type == "run.started":
        method, fields = Cuescope.start_run, fields - NOT_IN_START_RUN
        renamed = {"run_id"}
    elif event_type == "run.ended":
        method, renamed = Run.end, set()
    else:
        method, renamed = getattr(Run, event_type.replace(".", "_")), set()
        params = inspect.signature(method).parameters
        assert "turn" in params and params["turn"].default is inspect.Parameter.empty, "turn is required"
    params = {n: p for n, p in inspect.signature(method).parameters.items() if n not in ENVELOPE | renamed}
    assert {camel(n) for n in params} == fields, f"{method.__name__} does not take exactly the body of {event_type}"
    for name, param in params.items():
        assert param.annotation is not inspect.Parameter.empty, f"{name} has no type hint"
        is_required = param.default is inspect.Parameter.empty
        # a field with a default in the contract (countsAgainstBudget) is optional for the caller
        assert is_required == (camel(name) in required and "default" not in body["properties"][camel(name)]), name
    assert method.__doc__


def test_validation_names_the_field_and_reason():
    event = {"id": "e1", "runId": "r1", "type": "request.final", "ts": "2026-01-01T00:00:00Z", "turn": 1, "body": {"requiredBytes": -1}}
    assert validate(event) == ["body.requiredBytes: expected a number >= 0, got -1"]
    assert validate({**event, "body": {"requiredBytes": True}}) == ["body.requiredBytes: expected integer, got boolean"]
    assert validate({**event, "body": {"requiredBytes": 1.0}}) == []
    event["body"] = {"requiredBytes": 1}
    assert validate({**event, "turn": None}) == ["turn: expected integer, got null"]
    assert validate({k: v for k, v in event.items() if k != "turn"}) == ["turn: required"]
    assert validate({**event, "type": "request.finale"})[0].startswith('type: expected one of "run.started", ')
    assert validate({**event, "body": {"requiredBytes": float("nan")}}) == ["body.requiredBytes: expected integer, got number nan"]
    submitted = {**event, "type": "request.submitted", "body": {"outcome": "ok", "reminders": [{"key": "nope", "stage": 1}]}}
    assert validate(submitted) == ['body.reminders[0].key: expected one of "requests", "time", "context", "edits", "review", got string "nope"']
    started = {**event, "type": "run.started", "body": {"task": "t", "policy": {}, "copy": {"requests": {"*": "x"}, "bogus": {}}}}
    assert validate(started) == ["body.copy.bogus: unknown property (not allowed here)"]


def offline(**options) -> Cuescope:
    """A client whose server is never reached in these tests (nothing is flushed)."""
    return Cuescope("http://127.0.0.1:9", "key", flush_at_exit=False, flush_interval=3600, **options)


def test_development_mode_raises_at_the_call_site_and_production_mode_reports():
    dev = offline(mode="development")
    run = dev.start_run(task="t", policy={})
    with pytest.raises(CuescopeError) as raised:
        run.request_final(turn=1, required_bytes=-5)
    assert raised.value.kind == "invalid" and "body.requiredBytes" in str(raised.value)
    with pytest.raises(CuescopeError):
        run.meter_time(turn=1, elapsed_ms=5, at=datetime(2026, 1, 1))  # a naive datetime has no zone
    assert dev.stats().invalid == 0 and dev.stats().buffered == 1

    seen = []
    prod = offline(on_error=seen.append)
    run = prod.start_run(task="t", policy={})
    eid = run.request_final(turn=1, required_bytes=-5)
    assert ID.match(eid) and [e.event_ids for e in seen] == [(eid,)] and seen[0].kind == "invalid"
    assert prod.stats().invalid == 1 and prod.stats().buffered == 1  # run.started only


def test_times_are_sent_as_rfc3339_utc_with_milliseconds():
    client = offline()
    run = client.start_run(task="t", policy={}, run_id="r")
    run.meter_time(turn=0, elapsed_ms=1, at=datetime(2026, 5, 1, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=2))))
    encoded = client._buffer[-1].json
    assert '"ts":"2026-05-01T10:00:00.123Z"' in encoded
    assert re.search(r'"ts":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"', client._buffer[0].json)


def test_options_are_checked():
    with pytest.raises(ValueError):
        Cuescope("localhost:3000", "k", flush_at_exit=False)
    with pytest.raises(ValueError):
        Cuescope("http://x", "k", batch_size=1001, flush_at_exit=False)
    with pytest.raises(ValueError):
        Cuescope("http://x", "k", mode="debug", flush_at_exit=False)


def test_backoff_is_full_jitter_doubling_to_a_cap_and_honours_retry_after():
    assert retry_delay(1, None, rand=lambda: 0.999) < 0.25
    assert 1.9 < retry_delay(4, None, rand=lambda: 0.999) < 2.0
    assert retry_delay(20, None, rand=lambda: 0.999) < 15.0
    assert retry_delay(1, None, rand=lambda: 0.0) == 0.0
    assert retry_delay(1, "3", rand=lambda: 0.0) == 3.0
    assert retry_delay(1, "600", rand=lambda: 0.0) == 60.0  # capped
    assert retry_delay(1, "Wed, 21 Oct 2015 07:28:00 GMT", rand=lambda: 0.5) == 0.125  # a date in the past
    assert retry_delay(1, "soon", rand=lambda: 0.5) == 0.125  # unreadable: ignored
