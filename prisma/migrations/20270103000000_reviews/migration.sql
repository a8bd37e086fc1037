-- Reviews of Reviewer candidates (issue 26, docs/reviews.md): a person's verdict on a dispatch or a
-- violation (justified, unnecessary, should have been dispatched), a comment, and who the candidate
-- is assigned to. One row per candidate of a run, keyed as its reviewer_rows row is (review_key); the
-- row goes with its run (ON DELETE CASCADE).
--
-- Hand-written SQL (see README, "Migrations"): the two generated columns of reviewer_rows and the
-- partial indexes have no counterpart in prisma/schema.prisma; the models' comments point here.

-- Two generated columns, added in one statement (one rewrite of the table):
-- review_key: a candidate's key within its run: `c:<candidate id>` for a candidate the agent recorded,
-- `t:<turn>` for one only the rebuild says was due (it has no id; the rebuild has at most one per
-- turn). A rebuild keeps both; when the agent's record of a `t:` candidate arrives later, its key
-- becomes `c:` and the rebuild moves its review along (lib/server/reviewer/store-audit.ts).
-- in_queue: the review queue: every candidate that was dispatched, that has a Reviewer finding, or
-- that only the rebuild says was due (the agent recorded none: "should it have been dispatched?").
ALTER TABLE "reviewer_rows"
  ADD COLUMN "review_key" TEXT GENERATED ALWAYS AS (
    CASE WHEN ("row"::jsonb ->> 'candidateId') IS NOT NULL THEN 'c:' || ("row"::jsonb ->> 'candidateId') ELSE 't:' || "turn"::text END
  ) STORED,
  ADD COLUMN "in_queue" BOOLEAN GENERATED ALWAYS AS (
    "has_violations"
    OR jsonb_array_length("row"::jsonb -> 'dispatches') > 0
    OR ("row"::jsonb ->> 'source') = 'rebuilt'
  ) STORED;

CREATE INDEX "reviewer_rows_queue_idx" ON "reviewer_rows" ("project_id", "run_pk", "ordinal") WHERE "in_queue";
CREATE INDEX "reviewer_rows_review_key_idx" ON "reviewer_rows" ("project_id", "run_pk", "review_key");

CREATE TABLE "reviews" (
  "project_id"          TEXT NOT NULL,
  "run_pk"              TEXT NOT NULL,
  "review_key"          TEXT NOT NULL,
  -- The candidate's turn, for the run page's order.
  "turn"                INTEGER NOT NULL,
  "verdict"             TEXT CHECK ("verdict" IN ('justified', 'unnecessary', 'should_dispatch')),
  "comment"             TEXT,
  -- What the rules said when the verdict was given: the candidate's Reviewer findings, and whether
  -- it was dispatched (the trends' agreement between people and rules R12-R13 reads these only).
  "rule_findings"       TEXT[] NOT NULL DEFAULT '{}',
  "dispatched"          BOOLEAN NOT NULL DEFAULT false,
  "reviewed_at"         TIMESTAMPTZ(3),
  "reviewer_person_id"  TEXT,
  "reviewer_key_id"     TEXT,
  "reviewer_name"       TEXT,
  "assignee_person_id"  TEXT,
  "assigned_at"         TIMESTAMPTZ(3),
  -- Each change adds one: a write that names an older version is refused (409).
  "version"             INTEGER NOT NULL DEFAULT 1,
  "updated_at"          TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

  CONSTRAINT "reviews_pkey" PRIMARY KEY ("project_id", "run_pk", "review_key"),
  CONSTRAINT "reviews_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
    REFERENCES "runs" ("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);

-- The trends' verdicts per week and the export: reviews with a verdict, by when.
CREATE INDEX "reviews_reviewed_at_idx" ON "reviews" ("project_id", "reviewed_at") WHERE "verdict" IS NOT NULL;
-- "Assigned to me".
CREATE INDEX "reviews_assignee_idx" ON "reviews" ("project_id", "assignee_person_id") WHERE "assignee_person_id" IS NOT NULL;
