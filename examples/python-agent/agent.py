#!/usr/bin/env python3
"""An ETF research agent instrumented with the Cuescope Python package (packages/python).

It compares the holdings and fees of four ETFs, publishes its findings as text blocks and edits
them, with a scripted model (no network, no model API key) -- the script of the TypeScript example
(examples/etf-agent) -- and records every turn to a Cuescope server. The run is deterministic: its
times come from a scripted clock (``at=``) and its event ids from a counter, so two runs with the same --run-id send the same events.

    python3 examples/python-agent/agent.py --url http://localhost:3000 --key <key> [--run-id ID] [--turns N] [--quiet]
    python3 examples/python-agent/agent.py --jsonl run.jsonl [--run-id ID] [--turns N]

Run from the repository, put the package on the path: PYTHONPATH=packages/python. The key may also
come from CUESCOPE_API_KEY or the demo key `npm start` keeps, the URL from CUESCOPE_URL. With
--jsonl the same run is written as JSON Lines (one telemetry v1 event a line, docs/contract/telemetry.md)
instead of being sent: `npm run import -- run.jsonl` sends such a file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

FUNDS = [
    # Illustrative figures for the example, not investment data (as in examples/etf-agent/model.ts).
    {"ticker": "VOO", "index": "S&P 500", "expense_ratio": 0.03, "holdings": 504, "top10": 37.1},
    {"ticker": "IVV", "index": "S&P 500", "expense_ratio": 0.03, "holdings": 503, "top10": 37.0},
    {"ticker": "SPLG", "index": "S&P 500", "expense_ratio": 0.02, "holdings": 503, "top10": 37.0},
    {"ticker": "VTI", "index": "CRSP US Total Market", "expense_ratio": 0.03, "holdings": 3593, "top10": 31.4},
]
TASK = (
    "Compare the holdings and fees of "
    + ", ".join(f["ticker"] for f in FUNDS)
    + " for a long-term account and recommend one."
)
AGENT = "etf-agent-python-example"
MODEL = "scripted-model"
EDIT_LIMIT = 3
START = datetime(2026, 11, 29, 10, 0, 0, tzinfo=timezone.utc)


def policy_for(turns: int) -> dict[str, Any]:
    """The policy of examples/etf-agent: limits scaled so that a run of `turns` turns climbs through every stage."""
    usable = -(-turns * 115 // 100)  # ceil(turns * 1.15) in integers
    return {
        "requests": {"limit": usable + 6, "deliveryReserve": 6, "stages": [0.5, 0.75, 0.9]},
        "time": {"limitMs": turns * 30_000, "stages": [0.5, 0.75, 0.9]},
        "context": {"capacityBytes": 2_600, "stages": [0.7, 0.85, 0.95]},
        "edits": {"perBlockLimit": EDIT_LIMIT, "stages": [0.5, 1.0]},
        "review": {"everyTurns": 8},
        "reviewer": {"autoReviewAllowed": True, "minRequestsLeft": 6},
    }


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


class Clock:
    """The agent's scripted clock: turn t starts t minutes after START, its events 100 ms apart. Each
    event also gets an id from a counter (`<run id>-000001`, ...), so ids sort in emission order and
    the same run sent twice is the same events."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.turn = 0
        self.step = 0
        self.count = 0

    def begin(self, turn: int) -> None:
        self.turn, self.step = turn, 0

    def next(self) -> dict[str, Any]:
        """The next event's `at` and `event_id` (keyword arguments of every Run method)."""
        self.step += 1
        self.count += 1
        at = START + timedelta(minutes=self.turn, milliseconds=100 * self.step)
        return {"at": at, "event_id": f"{self.run_id}-{self.count:06d}"}


# --- the scripted model (a port of examples/etf-agent/model.ts) ---------------------------------------


class Research:
    def __init__(self) -> None:
        self.notes: list[str] = []
        self.blocks: dict[str, dict[str, Any]] = {}  # blockId -> {title, text, edits}, in publication order
        self.facts: set[str] = set()
        self.reviewed = 0
        self.finalized = False


def scripted_model(research: Research, turn: int, turns: int, wrap_up: bool, review_due: bool) -> dict[str, Any]:
    """One action for the turn. It heeds what the agent knows: it wraps up when the budget runs low,
    reviews its objectives at a checkpoint, and leaves a block alone once its edits are used up."""
    if wrap_up or turn >= turns - 1:
        if "b4" not in research.blocks:
            return append("b4", "Recommendation", recommendation())
        return {"kind": "finalize", "text": f"Recommendation published after {turn} turns: {recommendation()}"}
    if review_due:
        return {"kind": "review_objectives", "text": "Objectives: fees, holdings overlap, tracking; evidence: fact sheets."}
    for topic in ("fees", "holdings"):
        fund = next((f for f in FUNDS if f"{topic}:{f['ticker']}" not in research.facts), None)
        if fund is not None:
            research.facts.add(f"{topic}:{fund['ticker']}")
            return {"kind": "tool_call", "text": fact_sheet(topic, fund)}
        block_id = "b1" if topic == "fees" else "b2"
        if block_id not in research.blocks:
            return append(block_id, "Expense ratios" if topic == "fees" else "Holdings overlap", summary(topic))
    if "b3" not in research.blocks:
        return append("b3", "Tracking difference", "All four track their index within a few basis points a year.")
    if turn % 3 == 0:
        quotes = [
            f"{f['ticker']} {100 + ((turn * 7 + i * 13) % 40) / 10:.2f} (spread 0.0{1 + i}%)" for i, f in enumerate(FUNDS)
        ]
        return {"kind": "tool_call", "text": f"quotes at turn {turn}: {', '.join(quotes)}; volumes in line with the 30-day average."}
    ids = list(research.blocks)
    for k in range(len(ids)):
        block_id = ids[(turn + k) % len(ids)]
        block = research.blocks[block_id]
        if block["edits"] < EDIT_LIMIT:
            return {"kind": "edit_block", "blockId": block_id, "text": f"{block['text']} (revised at turn {turn})"}
    return {"kind": "check_evidence", "text": "Cross-checked the fact sheets against the holdings files."}


def append(block_id: str, title: str, text: str) -> dict[str, Any]:
    return {"kind": "append_block", "blockId": block_id, "title": title, "text": text}


def fact_sheet(topic: str, f: dict[str, Any]) -> str:
    if topic == "fees":
        return (
            f"{f['ticker']} fact sheet: tracks the {f['index']}; expense ratio {f['expense_ratio']:.2f}% a year, "
            "no purchase or redemption fees; dividends paid quarterly."
        )
    return (
        f"{f['ticker']} holdings file: {f['holdings']:,} holdings; the top 10 are {f['top10']}% of assets; "
        "largest sector information technology."
    )


def summary(topic: str) -> str:
    if topic == "fees":
        return ", ".join(f"{f['ticker']} {f['expense_ratio']:.2f}%" for f in FUNDS) + ": the cheapest is SPLG by one basis point."
    return "VOO, IVV and SPLG hold the same S&P 500 stocks (overlap about 100%); VTI adds about 3,100 smaller companies."


def recommendation() -> str:
    return "For a long-term account any of VOO, IVV or SPLG is fine (same index, 0.02-0.03%); VTI if small caps are wanted."


def assemble(research: Research) -> str:
    """The request the model gets: task, published blocks, research notes."""
    blocks = [f"## {block_id}: {b['title']}\n{b['text']}" for block_id, b in research.blocks.items()]
    return "\n\n".join([f"# Task\n{TASK}", "# Published", *blocks, "# Notes", *research.notes])


def apply(research: Research, action: dict[str, Any]) -> None:
    kind = action["kind"]
    if kind == "tool_call":
        research.notes.append(action["text"])
    elif kind == "append_block":
        research.blocks[action["blockId"]] = {"title": action["title"], "text": action["text"], "edits": 0}
    elif kind == "edit_block":
        block = research.blocks[action["blockId"]]
        block["text"] = action["text"]
        block["edits"] += 1
    elif kind == "review_objectives":
        research.reviewed += 1
    elif kind == "finalize":
        research.finalized = True


# --- the agent loop -------------------------------------------------------------------------------------


def run_agent(run: Any, turns: int, log: Callable[[str], None]) -> int:
    """Plays the scripted run, recording each turn's facts through `run` (a cuescope Run). Returns the turns."""
    policy = policy_for(turns)
    usable = policy["requests"]["limit"] - policy["requests"]["deliveryReserve"]
    every = policy["review"]["everyTurns"]
    reviewer = policy["reviewer"]
    clock = Clock(run.run_id)
    research = Research()
    requests = 0  # model requests used (the budget's reading)
    elapsed_ms = 0  # the agent's clock: scripted, so every run is the same
    edited_block: str | None = None  # the publisher reports an edit on the next turn
    review: dict[str, Any] | None = None  # the Reviewer dispatch in progress
    checkpoint = 0  # the last review checkpoint that made a Reviewer candidate
    turn = 0

    while not research.finalized:
        turn += 1
        clock.begin(turn)
        # 1. Readings, each from its owner: budget, clock, publisher; a finished Reviewer dispatch.
        run.meter_requests(turn=turn, used=requests, **clock.next())
        run.meter_time(turn=turn, elapsed_ms=elapsed_ms, **clock.next())
        if edited_block is not None:
            run.block_edited(turn=turn, block_id=edited_block, used=research.blocks[edited_block]["edits"], **clock.next())
        edited_block = None
        if review is not None and review["until"] <= turn:
            run.reviewer_completed(turn=turn, dispatch_id=review["dispatchId"], verdict="sources check out", **clock.next())
            run.model_action(turn=turn, kind="check_evidence", **clock.next())
            review = None

        # 2. The final request; compacted when it grows past 90% of the context capacity.
        request = assemble(research)
        capacity = policy["context"]["capacityBytes"]
        if utf8(request) > capacity * 0.9 and len(research.notes) > 2:
            original = utf8(request)
            older = len(research.notes) - 2
            research.notes[:older] = [f"({older} older notes summarised)"]
            request = assemble(research)
            run.context_compaction(turn=turn, original_bytes=original, candidate_bytes=utf8(request), outcome="adopted", **clock.next())

        # 3. The request is measured and sent. This agent keeps no reminder ledger of its own, so its
        # submissions carry no `reminders` list: Cuescope's rebuild decides the reminders from the facts.
        run.request_final(turn=turn, required_bytes=utf8(request), **clock.next())
        used_before = requests
        requests += 1
        outcome = "failed" if turn % 17 == 9 else "ok"  # now and then the provider fails a request
        run.request_submitted(turn=turn, outcome=outcome, **clock.next())

        # 4. A Reviewer candidate at each review checkpoint, admitted by the runtime's rule (R13).
        admission = ""
        if turn // every > checkpoint:
            checkpoint = turn // every
            candidate = f"review-{checkpoint}"
            reasons = []
            if not reviewer["autoReviewAllowed"]:
                reasons.append("auto_review_disabled")
            if usable - used_before < reviewer["minRequestsLeft"]:
                reasons.append("insufficient_budget")
            if review is not None:
                reasons.append("review_in_progress")
            run.reviewer_candidate(turn=turn, candidate_id=candidate, checkpoint=checkpoint, **clock.next())
            run.reviewer_admission(turn=turn, candidate_id=candidate, granted=not reasons, reasons=reasons, **clock.next())
            admission = f" reviewer: {'admitted' if not reasons else ','.join(reasons)}"
            if not reasons:
                review = {"dispatchId": f"{candidate}:dispatch", "until": turn + 2}
                run.reviewer_dispatched(turn=turn, candidate_id=candidate, dispatch_id=review["dispatchId"], **clock.next())
                requests += 1  # the Reviewer's own model request, read by the budget on the next turn

        # 5. The model's answer (scripted), and what the agent did with it.
        action: dict[str, Any] = {"kind": "other", "text": "the request failed: no answer"}
        if outcome == "ok":
            wrap_up = used_before / usable >= 0.9  # the budget's last stage
            action = scripted_model(research, turn, turns, wrap_up, review_due=turn % every == 0)
            apply(research, action)
            if action["kind"] == "edit_block":
                edited_block = action["blockId"]
            if action["kind"] == "finalize":
                run.user_notified(turn=turn, channel="console", message=action["text"], **clock.next())
        if "blockId" in action:
            run.model_action(turn=turn, kind=action["kind"], block_id=action["blockId"], **clock.next())
        else:
            run.model_action(turn=turn, kind=action["kind"], **clock.next())
        elapsed_ms += 24_000 + (turn % 5) * 1_000 if outcome == "ok" else 9_000
        log(f"turn {turn:3}  {utf8(request):5} B  {outcome:<6} {action['kind']:<17}{admission}")

    clock.begin(turn + 1)
    run.end("completed", **clock.next())
    return turn


# --- JSON Lines instead of a server ---------------------------------------------------------------------


class JsonlRun:
    """The same surface as a cuescope Run, writing each event as one JSON line instead of sending it."""

    def __init__(self, out: Any, run_id: str, started: dict[str, Any]) -> None:
        self.run_id = run_id
        self._out = out
        self._write("run.started", {k: v for k, v in started.items() if v is not None}, None, START, f"{run_id}-000000")

    def _write(self, event_type: str, body: dict[str, Any], turn: int | None, at: datetime, event_id: str) -> None:
        event: dict[str, Any] = {
            "id": event_id,
            "runId": self.run_id,
            "type": event_type,
            "ts": at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        if turn is not None:
            event["turn"] = turn
        event["body"] = body
        self._out.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")

    def __getattr__(self, method: str) -> Callable[..., None]:
        event_type = method.replace("_", ".", 1)

        def record(*, turn: int, at: datetime, event_id: str, **fields: Any) -> None:
            self._write(event_type, wire(fields), turn, at, event_id)

        return record

    def end(self, status: str, *, at: datetime, event_id: str) -> None:
        self._write("run.ended", {"status": status}, None, at, event_id)


def wire(fields: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments (snake_case, as the package's Run methods take them) as the body's fields (camelCase)."""
    return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name): value for name, value in fields.items()}


# --- command line -----------------------------------------------------------------------------------------


def demo_key() -> str | None:
    """`npm start` on the embedded database keeps its demo key beside the data directory."""
    data_dir = Path(os.environ.get("CUESCOPE_DATA_DIR", ".cuescope/data")).resolve()
    key_file = data_dir.parent / "demo-key"
    return key_file.read_text("utf-8").strip() if key_file.exists() else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="agent.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("CUESCOPE_URL", "http://localhost:3000"), help="the Cuescope server")
    parser.add_argument("--key", default=os.environ.get("CUESCOPE_API_KEY"), help="a project API key")
    parser.add_argument("--run-id", default=None, help="the run's id (default: python-etf-<turns>)")
    parser.add_argument("--turns", type=int, default=30, help="how long the scripted research goes on (>= 4)")
    parser.add_argument("--jsonl", metavar="FILE", help="write the run as JSON Lines to FILE ('-': stdout) instead of sending it")
    parser.add_argument("--quiet", action="store_true", help="only the closing JSON line")
    args = parser.parse_args(argv)
    if args.turns < 4:
        parser.error("--turns needs an integer >= 4")
    run_id = args.run_id or f"python-etf-{args.turns}"
    quiet = args.quiet or args.jsonl == "-"
    log = (lambda line: None) if quiet else (lambda line: print(line, flush=True))
    started = {"task": TASK, "agent": AGENT, "model": MODEL, "policy": policy_for(args.turns)}

    if args.jsonl:
        out = sys.stdout if args.jsonl == "-" else open(args.jsonl, "w", encoding="utf-8", newline="\n")
        try:
            turns = run_agent(JsonlRun(out, run_id, started), args.turns, log)
        finally:
            if out is not sys.stdout:
                out.close()
        if args.jsonl != "-":
            print(json.dumps({"runId": run_id, "turns": turns, "jsonl": args.jsonl}))
        return 0

    key = args.key or demo_key()
    if not key:
        parser.error("an API key is needed: --key or CUESCOPE_API_KEY (npm start prints the demo key)")
    from cuescope import Cuescope  # PYTHONPATH=packages/python from the repository, or the installed package

    errors: list[Any] = []
    # --- the lines that instrument an agent -------------------------------------------------------------
    with Cuescope(args.url, key, flush_interval=0.25, on_error=errors.append) as cs:
        run = cs.start_run(run_id=run_id, **started)
        log(f"run {run_id}: {args.url.rstrip('/')}/runs/{run_id}")
        turns = run_agent(run, args.turns, log)
        flushed = cs.flush(timeout=30)
        stats = cs.stats()
    # ------------------------------------------------------------------------------------------------------
    for error in errors:
        print(f"python-agent: {error}", file=sys.stderr)
    print(json.dumps({"runId": run_id, "turns": turns, "stats": dataclasses.asdict(stats)}))
    return 0 if flushed and not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
