import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { loadRunEvents } from "@/lib/server/runs/run-events";
import { testDatabases } from "@/lib/server/testing/databases";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import { smallRun } from "@/lib/server/testing/events";
import { keysWithoutProject, REFERENCE_TABLES } from "@/lib/server/testing/key-audit";
import { type Database } from ".";
import { applyMigrations } from "./migrate";

const PROJECT_IN_EVERY_KEY = "20261201020000_project_in_every_key";

describe.each(testDatabases())("the project in every key on $name", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("every unique index and foreign key of the migrated schema includes project_id (reference tables aside)", async () => {
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  });

  it("docs/deployment.md distributes every table of a project's data by project (and names each reference table)", async () => {
    const doc = readFileSync("docs/deployment.md", "utf8");
    const distributed = new Set(["runs", ...[...(/unnest\(ARRAY\[(.*?)\]\)/.exec(doc)?.[1] ?? "").matchAll(/'(\w+)'/g)].map((m) => m[1])]);
    const references = new Set([...doc.matchAll(/create_reference_table\('(\w+)'\)/g)].map((m) => m[1]));
    const { rows } = await db.executeSql(
      `SELECT c.relname::text AS "table" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'
        ORDER BY 1`,
    );
    const tables = (rows as { table: string }[]).map((r) => r.table);
    const project = tables.filter((t) => !Object.hasOwn(REFERENCE_TABLES, t));
    expect(
      project.filter((t) => !distributed.has(t)),
      "tables docs/deployment.md does not distribute",
    ).toEqual([]);
    expect(
      [...distributed].filter((t) => !tables.includes(t)),
      "tables docs/deployment.md distributes that do not exist",
    ).toEqual([]);
    // The SQL makes the first three reference tables; the table above names them all.
    for (const table of references) expect(Object.hasOwn(REFERENCE_TABLES, table), table).toBe(true);
    for (const table of Object.keys(REFERENCE_TABLES)) expect(doc, table).toContain(`\`${table}\``);
  });

  it("names each kind of key a distributed database could not keep", async () => {
    const problems = await db.withSql(async (sql) => {
      await sql.exec("BEGIN");
      try {
        await sql.exec(`
          CREATE TABLE probe_plain (id TEXT PRIMARY KEY);
          CREATE TABLE probe_child (project_id TEXT NOT NULL, run_pk TEXT NOT NULL, key_id TEXT NOT NULL REFERENCES api_keys (id),
            FOREIGN KEY (project_id, run_pk) REFERENCES runs (id, project_id));
          ALTER TABLE sessions ADD COLUMN probe_run TEXT, ADD FOREIGN KEY (project_id, probe_run) REFERENCES runs (project_id, id);
          CREATE UNIQUE INDEX probe_run_started ON events (run_pk) WHERE type = 'run.started';`);
        return await keysWithoutProject(sql);
      } finally {
        await sql.exec("ROLLBACK");
      }
    });
    expect(problems).toEqual([
      "events: unique index probe_run_started (run_pk) leaves out project_id",
      "probe_child: foreign key probe_child_key_id_fkey (key_id) → api_keys (id) leaves out project_id",
      "probe_child: foreign key probe_child_project_id_run_pk_fkey (project_id, run_pk) → runs (id, project_id) does not pair project_id with project_id",
      "probe_plain: no project_id column",
      "probe_plain: unique index probe_plain_pkey (id) leaves out project_id",
      "sessions: foreign key sessions_project_id_probe_run_fkey (project_id, probe_run) → runs (project_id, id): a reference table cannot point into a distributed one",
    ]);
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  });
});

describe.each(bareDatabases())(`${PROJECT_IN_EVERY_KEY} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("keeps every row, gives each cached decision its run's project, and leaves no key without it", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(PROJECT_IN_EVERY_KEY)));
    const projects = [
      (await db.prisma.project.create({ data: { name: "keys-a" } })).id,
      (await db.prisma.project.create({ data: { name: "keys-b" } })).id,
    ];
    // The same agent run id in two projects: two runs.
    for (const projectId of projects) expect((await ingestBatch(db, projectId, smallRun("shared", 4))).summary.error).toBe(0);
    await db.withSql((sql) =>
      sql.exec(`INSERT INTO run_decisions (run_pk, event_count, decisions, summary) SELECT id, event_count, '{}', '{}' FROM runs;
                INSERT INTO copy_versions (id, project_id, name, saved_by, copy) SELECT 'cv-' || id, id, 'v1', 'test', '{}' FROM projects;
                INSERT INTO replay_jobs (id, project_id, filters, input_key) SELECT 'rj-' || id, id, '{}', 'k' FROM projects;`),
    );
    const before = await db.withSql((sql) =>
      sql.query<{ seq: string }>(`SELECT seq::text, project_id, run_pk, event_id, content_hash FROM events ORDER BY seq`),
    );

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(PROJECT_IN_EVERY_KEY, true)))).toEqual([PROJECT_IN_EVERY_KEY]);

    expect(
      await db.withSql((sql) => sql.query(`SELECT seq::text, project_id, run_pk, event_id, content_hash FROM events ORDER BY seq`)),
    ).toEqual(before);
    // Raw SQL: the client knows the latest schema, and this database is at this migration.
    const runs = await db.withSql((sql) =>
      sql.query<{ id: string; projectId: string; runId: string; decisionsProject: string | null; eventCount: number | null }>(
        `SELECT r.id, r.project_id AS "projectId", r.run_id AS "runId", d.project_id AS "decisionsProject", d.event_count AS "eventCount"
           FROM runs r LEFT JOIN run_decisions d ON d.run_pk = r.id ORDER BY r.project_id`,
      ),
    );
    expect(runs.map((r) => [r.projectId, r.runId, r.decisionsProject, r.eventCount])).toEqual(
      [...projects].sort().map((projectId) => [projectId, "shared", projectId, smallRun("shared", 4).length]),
    );
    for (const run of runs) expect(await loadRunEvents(db, run)).toHaveLength(smallRun("shared", 4).length);
    for (const projectId of projects) {
      expect(await db.prisma.copyVersion.findUnique({ where: { projectId_id: { projectId, id: `cv-${projectId}` } } })).not.toBeNull();
      expect(
        await db.prisma.replayJob.findUnique({ where: { projectId_id: { projectId, id: `rj-${projectId}` } }, select: { id: true } }),
      ).not.toBeNull();
    }
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);

    // Ingest goes on: a re-send is a duplicate, deleting a run takes its events and cached decisions with it.
    expect((await ingestBatch(db, projects[0], smallRun("shared", 4))).summary.duplicate).toBe(smallRun("shared", 4).length);
    // deleteMany: it reads back no row, whose columns this older schema may lack (runs.comment_count).
    expect((await db.prisma.run.deleteMany({ where: { projectId: runs[0].projectId, id: runs[0].id } })).count).toBe(1);
    expect(await db.prisma.event.count({ where: { projectId: runs[0].projectId } })).toBe(0);
    expect(await db.withSql((sql) => sql.query(`SELECT run_pk FROM run_decisions`))).toHaveLength(1);

    // The migrations after it apply on top, and keep the project in every key.
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
  }, 60_000);
});
