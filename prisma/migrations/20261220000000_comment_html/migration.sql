-- A comment's body rendered once, when it is written: sanitized HTML (lib/markdown/markdown.ts,
-- docs/comments.md#safety), so that reads never parse Markdown. Rows written before this migration
-- are rendered right after it by lib/server/db/backfills.ts (in the same start-up, in batches); a row
-- still without it (written by an older server while this one started) is rendered when read.
ALTER TABLE "comments" ADD COLUMN "body_html" TEXT;
