import { renderMarkdown } from "@/lib/markdown/markdown";
import type { SqlRunner } from "./sql";

/**
 * What a migration's SQL cannot fill in by itself, done in JavaScript right after the migrations are
 * applied (lib/server/db/migrate.ts). Each back-fill belongs to a migration and runs only once that
 * migration is applied; it is idempotent (it fills only what is still empty) and works in bounded
 * batches on a keyset, so it always ends.
 */
export interface Backfill {
  /** The migration that made the column this fills. */
  migration: string;
  run(sql: SqlRunner): Promise<number>;
}

export const COMMENT_HTML_MIGRATION = "20261220000000_comment_html";
const BATCH = 200;

/**
 * Renders the comments written before `body_html` existed (or by an older server since). A row is
 * updated only while its body is still the one rendered, so an edit in between is not overwritten
 * with the old text's HTML (the edit renders its own).
 */
export async function backfillCommentHtml(sql: SqlRunner): Promise<number> {
  let filled = 0;
  let after: [string, string] = ["", ""];
  for (;;) {
    const rows = await sql.query<{ project_id: string; id: string; body: string }>(
      `SELECT "project_id", "id", "body" FROM "comments"
        WHERE "body_html" IS NULL AND ("project_id", "id") > ($1, $2)
        ORDER BY "project_id", "id" LIMIT ${BATCH}`,
      after,
    );
    if (rows.length === 0) return filled;
    const updated = await sql.query<{ id: string }>(
      `UPDATE "comments" AS c SET "body_html" = u.html
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(project_id, id, body, html)
        WHERE c."project_id" = u.project_id AND c."id" = u.id AND c."body" = u.body AND c."body_html" IS NULL
        RETURNING c."id"`,
      [rows.map((r) => r.project_id), rows.map((r) => r.id), rows.map((r) => r.body), rows.map((r) => renderMarkdown(r.body))],
    );
    filled += updated.length;
    const last = rows[rows.length - 1];
    after = [last.project_id, last.id];
  }
}

export const BACKFILLS: readonly Backfill[] = [{ migration: COMMENT_HTML_MIGRATION, run: backfillCommentHtml }];
