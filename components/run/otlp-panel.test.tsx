import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TOtlpRecord, TOtlpRecordsResponse } from "@/lib/contracts";
import { OtlpRecordsView } from "./otlp-panel";

function request(turn: number | null, input: number | null, output: number | null, model = "research-model"): TOtlpRecord {
  return {
    kind: "model_request",
    key: `span:t:${turn}`,
    runId: "r",
    ts: "2026-11-29T10:00:05.000Z",
    turn,
    receivedAt: "2026-11-29T10:01:00.000Z",
    modelRequest: { operation: "chat", provider: "mock", model, inputTokens: input, outputTokens: output, durationMs: 1500 },
    data: {},
  };
}

const data: TOtlpRecordsResponse = {
  runId: "r",
  counts: { modelRequests: 3, spans: 1, logs: 1 },
  tokens: { input: 2200, output: 300 },
  records: [
    request(1, 1000, 100),
    request(2, 1200, 200),
    request(null, null, null, "unknown-model"),
    {
      kind: "span",
      key: "span:t:tool",
      runId: "r",
      ts: "2026-11-29T10:00:06.000Z",
      turn: null,
      receivedAt: "2026-11-29T10:01:00.000Z",
      modelRequest: null,
      data: { name: "tool.search", attributes: { "cuescope.run_id": "r", "http.url": "https://example.test/voo" } },
    },
    {
      kind: "log",
      key: "log:1",
      runId: "r",
      ts: "2026-11-29T10:00:07.000Z",
      turn: null,
      receivedAt: "2026-11-29T10:01:00.000Z",
      modelRequest: null,
      data: { eventName: null, attributes: {} },
    },
  ],
  nextCursor: null,
};

describe("the OpenTelemetry panel", () => {
  it("counts the records and sums the tokens, labelled tokens, never bytes", () => {
    render(<OtlpRecordsView data={data} />);
    screen.getByRole("heading", { name: "Model requests (OpenTelemetry)" });
    screen.getByText("3 model requests · 2,200 tokens in · 300 tokens out · 1 other span · 1 log record");
    expect(screen.queryByText(/\bB\b|bytes/)).not.toBeInTheDocument();
  });

  it("lists each model request with its turn, model, duration and tokens; a request without tokens says so", () => {
    render(<OtlpRecordsView data={data} />);
    const rows = within(screen.getByRole("table", { name: "Model requests" }))
      .getAllByRole("row")
      .slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ["turn 1", "research-model", expect.any(String), "1.5 s", "1,000 tokens", "100 tokens"],
      ["turn 2", "research-model", expect.any(String), "1.5 s", "1,200 tokens", "200 tokens"],
      ["—", "unknown-model", expect.any(String), "1.5 s", "—", "—"],
    ]);
    // The chart's bars: only the requests that reported tokens.
    screen.getByRole("figure", {
      name: "Tokens per model request · tokens, as the provider reported them",
      description: "2 requests with tokens reported, 2,200 tokens in and 300 tokens out in all; the largest input, turn 2, 1,200 tokens.",
    });
  });

  it("shows the spans and log records kept raw, and says when the page holds only part of them", () => {
    render(<OtlpRecordsView data={{ ...data, counts: { ...data.counts, logs: 10 } }} />);
    const rows = within(screen.getByRole("table", { name: "Other OpenTelemetry records" }))
      .getAllByRole("row")
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[1].textContent)).toEqual(["tool.search", "log record"]);
    expect(rows[0]).toHaveTextContent("http.url=https://example.test/voo");
    expect(screen.getByText(/^Showing the first/)).toHaveTextContent(/Showing the first 5 of 14 records/);
  });
});
