-- Alerts (issue 26, docs/alerts.md): rules an admin writes over the stored aggregates, what they
-- fired (the in-app list), and their webhook deliveries with every attempt's answer.
--
-- Hand-written SQL (see README, "Migrations"): the partial indexes and the ON DELETE SET NULL of one
-- column have no counterpart in prisma/schema.prisma; the models' comments point here.

-- The meters' stages of a run's last rebuilt turn (its summary's lastMeters; edits: the highest of its
-- blocks), kept on the run's row by the rebuild like the list's other figures
-- (lib/server/runs/list-figures.ts), so "a live run's meter reached stage N" is an index read of the
-- live runs at that stage or above, however many runs the project has.
ALTER TABLE "runs"
  ADD COLUMN "requests_stage" SMALLINT,
  ADD COLUMN "time_stage" SMALLINT,
  ADD COLUMN "context_stage" SMALLINT,
  ADD COLUMN "edits_stage" SMALLINT;

UPDATE "runs" AS r SET
  "requests_stage" = (d."summary"->'lastMeters'->'requests'->>'stage')::smallint,
  "time_stage" = (d."summary"->'lastMeters'->'time'->>'stage')::smallint,
  "context_stage" = (d."summary"->'lastMeters'->'context'->>'stage')::smallint,
  "edits_stage" = (
    SELECT max((b->>'stage')::smallint) FROM jsonb_array_elements(d."summary"->'lastMeters'->'edits') AS b
  )
  FROM "run_decisions" AS d
 WHERE d."project_id" = r."project_id" AND d."run_pk" = r."id"
   AND jsonb_typeof(d."summary") = 'object' AND jsonb_typeof(d."summary"->'lastMeters') = 'object'
   AND (jsonb_typeof(d."summary"->'lastMeters'->'edits') IS NULL OR jsonb_typeof(d."summary"->'lastMeters'->'edits') = 'array');

CREATE INDEX "runs_live_requests_stage_idx" ON "runs" ("project_id", "requests_stage") WHERE "status" = 'live' AND "requests_stage" > 0;
CREATE INDEX "runs_live_time_stage_idx" ON "runs" ("project_id", "time_stage") WHERE "status" = 'live' AND "time_stage" > 0;
CREATE INDEX "runs_live_context_stage_idx" ON "runs" ("project_id", "context_stage") WHERE "status" = 'live' AND "context_stage" > 0;
CREATE INDEX "runs_live_edits_stage_idx" ON "runs" ("project_id", "edits_stage") WHERE "status" = 'live' AND "edits_stage" > 0;

-- A rule: its condition (contract: lib/contracts/alerts.ts ZAlertCondition), the runs it looks at
-- (agent, model), its webhook, and where its evaluation stands. `state` is 'firing' from the
-- evaluation that found the condition true until the one that finds it false, and `alert_id` is the
-- alert it fired then: no second alert (and no second webhook) until the condition has cleared.
CREATE TABLE "alert_rules" (
  "project_id"        TEXT NOT NULL,
  "id"                TEXT NOT NULL,
  "name"              TEXT NOT NULL,
  "condition"         JSONB NOT NULL,
  "scope"             JSONB NOT NULL DEFAULT '{}',
  "webhook_url"       TEXT,
  -- The HMAC key of the webhook's signature (docs/alerts.md#verifying-a-webhook): the server signs
  -- with it, so it is kept as given; the API shows it once, when made.
  "webhook_secret"    TEXT,
  "enabled"           BOOLEAN NOT NULL DEFAULT true,
  -- Until then, alerts are still listed but no webhook is sent.
  "silenced_until"    TIMESTAMPTZ(3),
  "state"             TEXT NOT NULL DEFAULT 'ok' CHECK ("state" IN ('ok', 'firing')),
  "alert_id"          TEXT,
  "last_value"        JSONB,
  "evaluated_at"      TIMESTAMPTZ(3),
  "created_at"        TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "created_by"        TEXT,
  "updated_at"        TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "version"           INTEGER NOT NULL DEFAULT 1,

  CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("project_id", "id"),
  CONSTRAINT "alert_rules_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The evaluation job reads every enabled rule of every project, in pages.
CREATE INDEX "alert_rules_enabled_idx" ON "alert_rules" ("project_id", "id") WHERE "enabled";

-- An alert: a rule's condition found true, until it cleared. It keeps the rule's name and condition
-- as they were, and outlives a deleted rule (rule_id becomes NULL).
CREATE TABLE "alerts" (
  "project_id"  TEXT NOT NULL,
  "id"          TEXT NOT NULL,
  "rule_id"     TEXT,
  "rule_name"   TEXT NOT NULL,
  "condition"   JSONB NOT NULL,
  "scope"       JSONB NOT NULL DEFAULT '{}',
  "fired_at"    TIMESTAMPTZ(3) NOT NULL,
  "cleared_at"  TIMESTAMPTZ(3),
  -- What the evaluation measured when it fired (ZAlertValue), and a sentence saying it.
  "value"       JSONB NOT NULL,
  "summary"     TEXT NOT NULL,
  -- The rule was silenced: listed, no webhook.
  "silenced"    BOOLEAN NOT NULL DEFAULT false,
  "runs_href"   TEXT NOT NULL,

  CONSTRAINT "alerts_pkey" PRIMARY KEY ("project_id", "id"),
  CONSTRAINT "alerts_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "alerts_rule_fkey" FOREIGN KEY ("project_id", "rule_id") REFERENCES "alert_rules" ("project_id", "id") ON DELETE SET NULL ("rule_id")
);
CREATE INDEX "alerts_fired_idx" ON "alerts" ("project_id", "fired_at" DESC, "id" DESC);
CREATE INDEX "alerts_rule_idx" ON "alerts" ("project_id", "rule_id", "fired_at" DESC) WHERE "rule_id" IS NOT NULL;

-- One alert's webhook: sent by a job of the durable queue (lib/server/alerts/deliver.ts), retried
-- with backoff until a 2xx or its attempts run out. Never sent again after a 2xx.
CREATE TABLE "alert_deliveries" (
  "project_id"    TEXT NOT NULL,
  "id"            TEXT NOT NULL,
  "alert_id"      TEXT NOT NULL,
  "url"           TEXT NOT NULL,
  "body"          TEXT NOT NULL,
  "state"         TEXT NOT NULL DEFAULT 'pending' CHECK ("state" IN ('pending', 'delivered', 'failed')),
  "attempts"      INTEGER NOT NULL DEFAULT 0,
  "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at"   TIMESTAMPTZ(3),

  CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("project_id", "id"),
  CONSTRAINT "alert_deliveries_alert_fkey" FOREIGN KEY ("project_id", "alert_id") REFERENCES "alerts" ("project_id", "id") ON DELETE CASCADE
);
CREATE INDEX "alert_deliveries_alert_idx" ON "alert_deliveries" ("project_id", "alert_id");

-- Each attempt's answer: status, error, how long, the start of the body.
CREATE TABLE "alert_delivery_attempts" (
  "project_id"        TEXT NOT NULL,
  "delivery_id"       TEXT NOT NULL,
  "attempt"           INTEGER NOT NULL,
  "at"                TIMESTAMPTZ(3) NOT NULL,
  "status"            INTEGER,
  "error"             TEXT,
  "duration_ms"       INTEGER NOT NULL,
  "response_excerpt"  TEXT,

  CONSTRAINT "alert_delivery_attempts_pkey" PRIMARY KEY ("project_id", "delivery_id", "attempt"),
  CONSTRAINT "alert_delivery_attempts_delivery_fkey" FOREIGN KEY ("project_id", "delivery_id") REFERENCES "alert_deliveries" ("project_id", "id") ON DELETE CASCADE
);
