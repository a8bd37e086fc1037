import { readFileSync } from "node:fs";
import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { InMemorySpanExporter, SimpleSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { expect, test } from "@playwright/test";
import { signInToDemo } from "./support/sign-in";

/**
 * An agent instrumented with OpenTelemetry (docs/contract/otlp.md) exports a short run to the
 * production server with the official protobuf exporter; the run page shows its rebuilt charts and
 * the panel of its model requests, in tokens.
 */
const demoKey = () => readFileSync(".cuescope/e2e/demo-key", "utf8").trim();

test("a run exported over OTLP is rebuilt and its model requests are shown in tokens", async ({ page, baseURL }) => {
  const runId = `otel-e2e-${Date.now()}`;
  const t0 = Date.UTC(2026, 10, 29, 10, 0, 0);
  const recorded = new InMemorySpanExporter();
  const tracer = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(recorded)] }).getTracer("e2e-agent");
  const run = tracer.startSpan("run", { startTime: t0, attributes: { "cuescope.run_id": runId } });
  const policy = { requests: { limit: 10, deliveryReserve: 1, stages: [0.5] } };
  run.addEvent(
    "run.started",
    { "cuescope.type": "run.started", "cuescope.body": JSON.stringify({ task: "OTLP e2e: compare SPY and VOO", policy }) },
    t0,
  );
  for (let turn = 0; turn < 3; turn++) {
    const at = t0 + 1000 * (turn + 1);
    const turnSpan = tracer.startSpan(`turn ${turn}`, { startTime: at, attributes: { "cuescope.run_id": runId } });
    const event = (type: string, body: Record<string, number | string>, ms: number) =>
      turnSpan.addEvent(
        type,
        {
          "cuescope.type": type,
          "cuescope.turn": turn,
          ...Object.fromEntries(Object.entries(body).map(([k, v]) => [`cuescope.body.${k}`, v])),
        },
        at + ms,
      );
    event("meter.requests", { used: 2 * turn + 1 }, 0);
    event("request.final", { requiredBytes: 1000 + turn }, 10);
    event("request.submitted", { outcome: "ok" }, 20);
    turnSpan.end(at + 30);
    const chat = tracer.startSpan("chat e2e-model", {
      kind: SpanKind.CLIENT,
      startTime: at + 5,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "e2e-model",
        "gen_ai.usage.input_tokens": 900 + turn,
        "gen_ai.usage.output_tokens": 50,
        "cuescope.run_id": runId,
        "cuescope.turn": turn,
      },
    });
    chat.end(at + 805);
  }
  run.end(t0 + 5000);

  const exporter = new OTLPTraceExporter({ url: `${baseURL}/api/v1/otlp/v1/traces`, headers: { "x-api-key": demoKey() } });
  const result = await new Promise<{ code: number; error?: Error }>((done) => exporter.export(recorded.getFinishedSpans(), done));
  expect(result).toEqual({ code: 0 });

  await signInToDemo(page, `/runs/${runId}`);
  const panel = page.getByRole("region", { name: "Model requests (OpenTelemetry)" });
  await expect(panel).toBeVisible({ timeout: 15_000 });
  await expect(panel).toContainText("3 model requests · 2,703 tokens in · 150 tokens out");
  const rows = panel.getByRole("table", { name: "Model requests" }).getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText("turn 0");
  await expect(rows.nth(1)).toContainText("900 tokens");
  await expect(rows.nth(1)).toContainText("800 ms");
  // The telemetry events in the span events were rebuilt like posted ones: the requests chart is drawn.
  await expect(page.getByRole("heading", { name: /^Requests/ })).toBeVisible({ timeout: 30_000 });
});
