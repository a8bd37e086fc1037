import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZCommentListQuery, ZEvent, type TEvent } from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { createHash } from "node:crypto";
import { authenticate } from "@/lib/server/auth/keys";
import { authenticateSession, hashToken } from "@/lib/server/auth/sessions";
import { editComment, listComments } from "@/lib/server/comments/comments";
import type { Database } from "@/lib/server/db";
import { applyMigrations } from "@/lib/server/db/migrate";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";

const PEOPLE = "20270102000000_people";

/**
 * Today's comments and browser sessions move forward without loss: a comment written with a key
 * keeps its author and stays its key's to edit; a key's session still signs its browser in.
 */
describe.each(bareDatabases())(`${PEOPLE} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("keeps comments (author, key, editable by that key) and key sessions working", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(PEOPLE)));
    // A project and its key as the previous version made them (its audit entries had no person column).
    const secret = "cs_before_people_reviewer_key";
    await db.withSql(async (sql) => {
      await sql.query(`INSERT INTO projects (id, name) VALUES ('p-old', 'before-people')`);
      await sql.query(
        `INSERT INTO api_keys (id, project_id, prefix, secret_hash, label) VALUES ('k-old', 'p-old', $1, $2, 'reviewer key')`,
        [secret.slice(0, 10), createHash("sha256").update(secret).digest("hex")],
      );
    });
    const caller = await authenticate(db, `Bearer ${secret}`);
    const events = generateEtfRun({ runId: "commented", seed: 3, turns: 8 }).events.map((e) => ZEvent.parse(e) as TEvent);
    expect((await ingestBatch(db, caller.projectId, events)).summary.error).toBe(0);
    const run = await db.prisma.run.findUniqueOrThrow({
      where: { projectId_runId: { projectId: caller.projectId, runId: "commented" } },
      select: { id: true },
    });

    // Rows as the previous version wrote them (raw SQL: the client knows the new schema only).
    const token = "a-session-token-from-before";
    await db.withSql(async (sql) => {
      await sql.query(
        `INSERT INTO comments (id, project_id, run_pk, turn, author_key_id, author_name, body, body_html)
         VALUES ('c-old', $1, $2, 3, $3, 'reviewer key', 'Looks stuck here.', '<p>Looks stuck here.</p>\n')`,
        [caller.projectId, run.id, caller.key!.id],
      );
      await sql.query(
        `INSERT INTO sessions (id, project_id, api_key_id, token_hash, expires_at) VALUES ('s-old', $1, $2, $3, now() + interval '1 day')`,
        [caller.projectId, caller.key!.id, hashToken(token)],
      );
    });

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(PEOPLE, true)))).toEqual([PEOPLE]);
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);

    const list = await listComments(db, { projectId: caller.projectId, keyId: caller.key!.id }, "commented", ZCommentListQuery.parse({}));
    expect(list.comments.map((c) => [c.id, c.turn, c.author, c.mine, c.body])).toEqual([
      ["c-old", 3, { name: "reviewer key", keyPrefix: secret.slice(0, 10) }, true, "Looks stuck here."],
    ]);
    expect((await editComment(db, caller, "commented", "c-old", "Stuck from turn 3.")).body).toBe("Stuck from turn 3.");
    expect((await authenticateSession(db, token)).key?.id).toBe(caller.key!.id);
  }, 120_000);
});
