-- Opt-in, PostgreSQL servers only: makes "events" a table partitioned by month of "received_at".
-- Not a committed migration (prisma/migrations): apply it once, when you choose, with
--   DATABASE_URL=postgresql://… npm run db:partition-events
-- (scripts/partition-events.ts; it runs this file in one transaction and refuses the embedded
-- database). docs/deployment.md says when it pays and how partitions are made and dropped.
--
-- Why received_at and not at: received_at is the database's own clock (DEFAULT now()), so every
-- insert lands in the current month's partition, a month's partition stops changing once the month
-- is over, and dropping it drops what arrived then. "at" is the agent's clock: anything from year
-- 0001 to 9999 (contract §4), so inserts would scatter over old and future partitions, and a run
-- imported today from last year's files would land in partitions that retention already dropped.
--
-- Idempotency. A unique key of a partitioned table must contain the partition key, so
-- UNIQUE (project_id, event_id) and the one-run.started-per-run index cannot stay on "events".
-- They move to "event_ids", a small unpartitioned table keyed (project_id, event_id). A BEFORE
-- INSERT trigger on "events" claims the id there first (INSERT … ON CONFLICT DO NOTHING) and skips
-- the row when the claim finds the id taken: exactly what ingest's INSERT … ON CONFLICT DO NOTHING
-- RETURNING did with the unique index — the row is not stored, not returned, and a concurrent
-- claimer of the same id waits for the first to commit or roll back. So
-- lib/server/ingest/ingest-batch.ts runs unchanged on both layouts.
--
-- Events are append-only; a change of received_at (which would move a row between partitions and
-- run into its own claimed id) is refused.

LOCK TABLE "events" IN ACCESS EXCLUSIVE MODE;

-- 1. The old table steps aside, without its keys (the data is copied, then it is dropped).
ALTER TABLE "events" RENAME TO "events_unpartitioned";
ALTER TABLE "events_unpartitioned" DROP CONSTRAINT "events_pkey";
ALTER TABLE "events_unpartitioned" DROP CONSTRAINT "events_project_id_run_pk_fkey";
DROP INDEX "events_project_id_event_id_key";
DROP INDEX "events_one_run_started_per_run";
DROP INDEX "events_project_id_run_pk_turn_idx";

-- 2. The partitioned table: the same columns (prisma/schema.prisma's Event), the same sequence.
CREATE TABLE "events" (
    "seq" BIGINT NOT NULL DEFAULT nextval('"events_seq_seq"'),
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "ts" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "turn" INTEGER,
    "body" JSONB NOT NULL,
    "content_hash" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
) PARTITION BY RANGE ("received_at");
ALTER SEQUENCE "events_seq_seq" OWNED BY "events"."seq";

-- Rows outside every monthly partition land here, so an insert never fails for want of a partition;
-- events_create_partitions moves them out when their month's partition is made.
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;

-- 3. Monthly partitions, named events_YYYY_MM (UTC months), from the month of from_time to the month
-- of until_time. Creates only what is missing; returns the names it created. A month whose rows sit
-- in events_default (nobody made its partition in time) gets them moved into its new partition.
CREATE FUNCTION "events_create_partitions"(from_time TIMESTAMPTZ DEFAULT now(), until_time TIMESTAMPTZ DEFAULT now() + INTERVAL '3 months')
RETURNS SETOF TEXT LANGUAGE plpgsql AS $$
DECLARE
  month TIMESTAMP := date_trunc('month', from_time AT TIME ZONE 'UTC');
  last TIMESTAMP := date_trunc('month', until_time AT TIME ZONE 'UTC');
  lo TIMESTAMPTZ;
  hi TIMESTAMPTZ;
  name TEXT;
BEGIN
  WHILE month <= last LOOP
    -- Month arithmetic on UTC wall-clock time: the session's time zone (and its DST) plays no part.
    lo := month AT TIME ZONE 'UTC';
    hi := (month + INTERVAL '1 month') AT TIME ZONE 'UTC';
    name := 'events_' || to_char(month, 'YYYY_MM');
    IF to_regclass(quote_ident(name)) IS NULL THEN
      IF EXISTS (SELECT 1 FROM "events_default" WHERE "received_at" >= lo AND "received_at" < hi) THEN
        EXECUTE format('CREATE TABLE %I (LIKE "events" INCLUDING DEFAULTS)', name);
        EXECUTE format('WITH moved AS (DELETE FROM "events_default" WHERE "received_at" >= $1 AND "received_at" < $2 RETURNING *)
                        INSERT INTO %I SELECT * FROM moved', name) USING lo, hi;
        EXECUTE format('ALTER TABLE "events" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
      ELSE
        EXECUTE format('CREATE TABLE %I PARTITION OF "events" FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
      END IF;
      RETURN NEXT name;
    END IF;
    month := month + INTERVAL '1 month';
  END LOOP;
END $$;

-- Every month that holds a stored event, through three months ahead.
SELECT "events_create_partitions"(COALESCE((SELECT min("received_at") FROM "events_unpartitioned"), now()));

-- 4. The ids: one row per stored event, and one run.started per run.
CREATE TABLE "event_ids" (
    "project_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "run_started" BOOLEAN NOT NULL,
    CONSTRAINT "event_ids_pkey" PRIMARY KEY ("project_id", "event_id")
);
INSERT INTO "event_ids" ("project_id", "event_id", "run_pk", "run_started")
  SELECT "project_id", "event_id", "run_pk", "type" = 'run.started' FROM "events_unpartitioned";
CREATE UNIQUE INDEX "event_ids_one_run_started_per_run" ON "event_ids" ("project_id", "run_pk") WHERE "run_started";
CREATE INDEX "event_ids_project_id_run_pk_idx" ON "event_ids" ("project_id", "run_pk");
ALTER TABLE "event_ids" ADD CONSTRAINT "event_ids_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "runs" ("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- 5. The rows move (no trigger yet: their ids are claimed above), then the keys are built once.
INSERT INTO "events" ("seq", "project_id", "run_pk", "event_id", "type", "ts", "at", "turn", "body", "content_hash", "received_at")
  SELECT "seq", "project_id", "run_pk", "event_id", "type", "ts", "at", "turn", "body", "content_hash", "received_at"
    FROM "events_unpartitioned";
DROP TABLE "events_unpartitioned";
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("project_id", "seq", "received_at");
CREATE INDEX "events_project_id_event_id_idx" ON "events" ("project_id", "event_id");
CREATE INDEX "events_project_id_run_pk_turn_idx" ON "events" ("project_id", "run_pk", "turn");
-- A zoomed timeline's reads (lib/server/runs/timeline-events.ts): the Reviewer events as keys, and
-- the run.started (the unique index on it lives on "event_ids" here).
CREATE INDEX "events_reviewer_idx" ON "events" ("project_id", "run_pk", "turn")
  WHERE "type" IN ('reviewer.candidate', 'reviewer.admission', 'reviewer.dispatched', 'reviewer.completed', 'reviewer.cancelled');
CREATE INDEX "events_run_started_idx" ON "events" ("project_id", "run_pk") WHERE "type" = 'run.started';
CREATE INDEX "events_reviewer_candidate_idx" ON "events" ("project_id", "run_pk", ("body" ->> 'candidateId'))
  WHERE "type" IN ('reviewer.candidate', 'reviewer.admission', 'reviewer.dispatched', 'reviewer.cancelled');
CREATE INDEX "events_reviewer_dispatch_idx" ON "events" ("project_id", "run_pk", ("body" ->> 'dispatchId'))
  WHERE "type" IN ('reviewer.dispatched', 'reviewer.completed');
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "runs" ("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- 6. From now on every insert claims its id first; a taken id (or a second run.started) skips the row.
CREATE FUNCTION "event_ids_claim"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_ids" ("project_id", "event_id", "run_pk", "run_started")
    VALUES (NEW."project_id", NEW."event_id", NEW."run_pk", NEW."type" = 'run.started')
    ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN NEW;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "events_claim_id" BEFORE INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION "event_ids_claim"();

CREATE FUNCTION "events_refuse_move"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: received_at of event % cannot change', OLD."event_id";
END $$;
CREATE TRIGGER "events_refuse_move" BEFORE UPDATE OF "received_at" ON "events" FOR EACH ROW
  WHEN (OLD."received_at" IS DISTINCT FROM NEW."received_at") EXECUTE FUNCTION "events_refuse_move"();

-- 7. Retention: drops every monthly partition that ends at or before `cutoff` (a DROP TABLE each, no
-- row-by-row delete), then deletes the runs that had no event left (their event ids and cached
-- decisions go with them), and for runs that had events on both sides of the cutoff frees the ids
-- of the dropped events, recounts their events and drops their cached decisions (the next read
-- rebuilds them from what is left). Returns the names of the partitions it dropped.
CREATE FUNCTION "events_drop_partitions_before"(cutoff TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $$
DECLARE
  part RECORD;
  boundary TIMESTAMPTZ := NULL;
BEGIN
  FOR part IN
    SELECT c.relname::TEXT AS name, to_date(substr(c.relname, 8), 'YYYY_MM')::TIMESTAMP AS month
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = '"events"'::regclass AND c.relname ~ '^events_[0-9]{4}_[0-9]{2}$'
     ORDER BY 2
  LOOP
    EXIT WHEN ((part.month + INTERVAL '1 month') AT TIME ZONE 'UTC') > cutoff;
    EXECUTE format('DROP TABLE %I', part.name);
    boundary := (part.month + INTERVAL '1 month') AT TIME ZONE 'UTC';
    RETURN NEXT part.name;
  END LOOP;
  IF boundary IS NULL THEN
    RETURN;
  END IF;
  -- A run's row is made with its first events and touched with each later batch, in the same
  -- transactions and on the same clock as their received_at.
  DELETE FROM "runs" WHERE "last_event_at" < boundary;
  CREATE TEMPORARY TABLE "events_cut_runs" AS
    SELECT "project_id", "id" FROM "runs" WHERE "first_seen_at" < boundary;
  DELETE FROM "event_ids" AS i USING "events_cut_runs" AS r
   WHERE i."project_id" = r."project_id" AND i."run_pk" = r."id"
     AND NOT EXISTS (SELECT 1 FROM "events" AS e WHERE e."project_id" = i."project_id" AND e."event_id" = i."event_id");
  UPDATE "runs" AS r SET "event_count" = (SELECT count(*) FROM "events" AS e WHERE e."project_id" = r."project_id" AND e."run_pk" = r."id")
    FROM "events_cut_runs" AS c WHERE r."project_id" = c."project_id" AND r."id" = c."id";
  DELETE FROM "run_decisions" AS d USING "events_cut_runs" AS c WHERE d."project_id" = c."project_id" AND d."run_pk" = c."id";
  DROP TABLE "events_cut_runs";
END $$;
