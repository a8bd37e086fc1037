import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { smallRun } from "@/lib/server/testing/events";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { COMMENT_HTML_MIGRATION } from "./backfills";
import { applyMigrations } from "./migrate";

/** Comments as the previous version stored them: raw SQL, only the columns it knew. */
async function insertOldComments(db: Database, projectId: string, runPk: string, bodies: string[], prefix: string): Promise<void> {
  await db.withSql((sql) =>
    sql.query(
      `INSERT INTO "comments" ("id", "project_id", "run_pk", "turn", "author_key_id", "author_name", "body")
       SELECT $3 || lpad(u.n::text, 4, '0'), $1, $2, NULL, 'key-1', 'Alice', u.body FROM unnest($4::text[]) WITH ORDINALITY AS u(body, n)`,
      [projectId, runPk, prefix, bodies],
    ),
  );
}

const htmlOf = async (db: Database, projectId: string) =>
  new Map(
    (await db.prisma.comment.findMany({ where: { projectId }, select: { id: true, bodyHtml: true } })).map((c) => [c.id, c.bodyHtml]),
  );

describe.each(bareDatabases())(`${COMMENT_HTML_MIGRATION} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("renders every comment written before it, in batches, and those an older server writes later at the next start", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(COMMENT_HTML_MIGRATION)));
    const projectId = (await db.prisma.project.create({ data: { name: "comment-html-migration" } })).id;
    expect((await ingestBatch(db, projectId, smallRun("noted", 3))).summary.error).toBe(0);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "noted" } }, select: { id: true } });

    // More comments than one batch of the back-fill (200), and a few whose HTML is known by hand.
    const known: [string, string][] = [
      ["**Look** at <b>this</b>", "<p><strong>Look</strong> at &lt;b&gt;this&lt;/b&gt;</p>\n"],
      ["[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"],
      ["[run](/runs/noted?turn=1)", '<p><a href="/runs/noted?turn=1" rel="noopener noreferrer nofollow">run</a></p>\n'],
      ["1. a\n2. b", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"],
    ];
    const filler = Array.from({ length: 450 }, (_, i) => `note *${i}*`);
    await insertOldComments(db, projectId, run.id, [...known.map(([body]) => body), ...filler], "old-");

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(COMMENT_HTML_MIGRATION, true)))).toEqual([
      COMMENT_HTML_MIGRATION,
    ]);
    const html = await htmlOf(db, projectId);
    expect(html.size).toBe(known.length + filler.length);
    known.forEach(([, expected], i) => expect(html.get(`old-${String(i + 1).padStart(4, "0")}`)).toBe(expected));
    filler.forEach((_, i) => expect(html.get(`old-${String(known.length + i + 1).padStart(4, "0")}`)).toBe(`<p>note <em>${i}</em></p>\n`));

    // A comment an older server wrote after the migration (no HTML), and one already rendered, which is left alone.
    await insertOldComments(db, projectId, run.id, ["late _one_"], "late-");
    await db.prisma.comment.updateMany({ where: { projectId, id: "old-0001" }, data: { bodyHtml: "<p>kept</p>\n" } });
    expect(await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR))).toEqual(expect.not.arrayContaining([COMMENT_HTML_MIGRATION]));
    const after = await htmlOf(db, projectId);
    expect(after.get("late-0001")).toBe("<p>late <em>one</em></p>\n");
    expect(after.get("old-0001")).toBe("<p>kept</p>\n");
  }, 120_000);
});
