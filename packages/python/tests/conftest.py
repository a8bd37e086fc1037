"""Fixtures: the real Cuescope server under test, a fault-injecting proxy in front of it, and reads of what it stored.

The server is started by packages/python/python.integration.test.ts (the app's real ingest route
and API on a real database, in-process under vitest), which runs this suite with
CUESCOPE_TEST_URL and CUESCOPE_TEST_KEY set. Nothing here mocks the server: every event goes
through HTTP to it, and every check reads back what it stored through its API.
"""

import http.client
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PACKAGE_DIR))


class Server:
    """The real Cuescope server: its URL, a project key, and reads of what it stored."""

    def __init__(self, url: str, key: str) -> None:
        self.url = url.rstrip("/")
        self.key = key

    def get(self, path: str) -> Any:
        request = urllib.request.Request(self.url + path, headers={"authorization": f"Bearer {self.key}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def events(self, run_id: str) -> List[Dict[str, Any]]:
        """Every stored event of the run (GET /api/v1/runs/:runId/events, all pages); none for an unknown run."""
        events: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        while True:
            query = {"limit": "5000", **({"cursor": cursor} if cursor else {})}
            try:
                page = self.get(f"/api/v1/runs/{urllib.parse.quote(run_id, safe='')}/events?{urllib.parse.urlencode(query)}")
            except urllib.error.HTTPError as error:
                if error.code == 404 and not events:
                    return []  # the server knows no event of this run
                raise
            events.extend(stored["event"] for stored in page["events"])
            cursor = page["nextCursor"]
            if not cursor:
                return events

    def event_ids(self, run_id: str) -> List[str]:
        return [e["id"] for e in self.events(run_id)]


@pytest.fixture(scope="session")
def server() -> Server:
    url = os.environ.get("CUESCOPE_TEST_URL")
    key = os.environ.get("CUESCOPE_TEST_KEY")
    if not url or not key:
        pytest.fail(
            "CUESCOPE_TEST_URL and CUESCOPE_TEST_KEY are not set: these tests need a real Cuescope server. "
            "Run them with `npx vitest run packages/python/python.integration.test.ts`, which starts one."
        )
    return Server(url, key)


class FaultProxy:
    """A real HTTP server in front of the Cuescope server that misbehaves for the first requests.

    Each request is, in this order: answered 503 while ``fail_first`` > 0 (with ``retry_after``);
    closed without an answer while ``close_first`` > 0; forwarded and answered ``delay`` seconds
    late while ``slow_first`` > 0 (the server stored the batch, the client may have given up); and
    otherwise forwarded (after ``latency`` seconds). ``requests`` counts them; ``sent_ids`` lists
    the event ids of every batch that reached the proxy, in order, repeats included, and
    ``batch_sizes`` their sizes.
    """

    def __init__(self, upstream: str) -> None:
        self.upstream = urllib.parse.urlsplit(upstream)
        self.fail_first = 0
        self.retry_after = "0"
        self.close_first = 0
        self.slow_first = 0
        self.delay = 0.0
        self.latency = 0.0
        self.requests = 0
        self.request_times: List[float] = []
        self.sent_ids: List[str] = []
        self.batch_sizes: List[int] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                proxy._handle(self, b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                proxy._handle(self, self.rfile.read(length))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=lambda: self.httpd.serve_forever(poll_interval=0.05), daemon=True)
        self._thread.start()

    def _take(self, name: str) -> bool:
        with self._lock:
            left = getattr(self, name)
            if left > 0:
                setattr(self, name, left - 1)
                return True
            return False

    def _handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        with self._lock:
            self.requests += 1
            self.request_times.append(time.monotonic())
            if body:
                try:
                    batch = json.loads(body)["batch"]
                    self.sent_ids.extend(e.get("id") for e in batch)
                    self.batch_sizes.append(len(batch))
                except Exception:
                    pass
        if self._take("fail_first"):
            payload = b'{"error":{"code":"unavailable","message":"injected 503"}}'
            handler.send_response(503)
            handler.send_header("content-type", "application/json")
            handler.send_header("retry-after", self.retry_after)
            handler.send_header("content-length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
            return
        if self._take("close_first"):
            handler.close_connection = True
            return  # no answer at all: the client sees the connection closed
        slow = self._take("slow_first")
        if self.latency:
            time.sleep(self.latency)
        status, headers, answer = self._forward(handler, body)
        if slow:
            time.sleep(self.delay)
        try:
            handler.send_response(status)
            for name, value in headers:
                if name.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server"):
                    handler.send_header(name, value)
            handler.send_header("content-length", str(len(answer)))
            handler.end_headers()
            handler.wfile.write(answer)
        except OSError:
            pass  # the client gave up waiting

    def _forward(self, handler: BaseHTTPRequestHandler, body: bytes) -> Any:
        connection = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=30)
        try:
            headers = {k: v for k, v in handler.headers.items() if k.lower() not in ("host", "connection")}
            connection.request(handler.command, handler.path, body=body or None, headers=headers)
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            connection.close()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def proxy(server: Server) -> Iterator[FaultProxy]:
    p = FaultProxy(server.url)
    yield p
    p.close()


class Errors(list):
    """An on_error that keeps what it is told (from any thread)."""

    def __call__(self, error: Any) -> None:
        self.append(error)

    def of(self, kind: str) -> list:
        return [e for e in self if e.kind == kind]


@pytest.fixture
def errors() -> Errors:
    return Errors()


from cuescope.types import Policy  # noqa: E402 (after the sys.path entry above)

POLICY: Policy = {"requests": {"limit": 60, "deliveryReserve": 6, "stages": [0.5, 0.75, 0.9]}}
