-- OTLP ingestion (docs/contract/otlp.md): what an OpenTelemetry export holds besides telemetry events
-- (those go to "events" like posted ones) — model requests from GenAI spans, and spans and log records
-- kept raw — one row each, unique per project by its record key so that a re-export is a no-op.
-- Attached to a run by its run id as text (a trace id when the record names no run), not by a foreign
-- key: a record may arrive before its run's events, or belong to a trace with no telemetry run.
CREATE TABLE "otlp_records" (
    "project_id" TEXT NOT NULL,
    "record_key" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "turn" INTEGER,
    "data" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_records_pkey" PRIMARY KEY ("project_id", "record_key")
);
CREATE INDEX "otlp_records_project_id_run_id_kind_ts_record_key_idx" ON "otlp_records"("project_id", "run_id", "kind", "ts", "record_key");
CREATE INDEX "otlp_records_project_id_run_id_ts_record_key_idx" ON "otlp_records"("project_id", "run_id", "ts", "record_key");
ALTER TABLE "otlp_records" ADD CONSTRAINT "otlp_records_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
