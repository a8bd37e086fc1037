import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { applyMigrations } from "./migrate";

const REPLAY_QUEUE = "20261223000000_replay_queue";

describe.each(bareDatabases())(`${REPLAY_QUEUE} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("keeps the oldest of identical pending replays queued, ends the others saying why, and leaves the rest as they were", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(REPLAY_QUEUE)));
    const projectId = (await db.prisma.project.create({ data: { name: "replay-queue-migration" } })).id;
    // What the previous version stored: one job per identical request (raw SQL: only the columns it knew).
    const rows: [string, string, string, boolean, string][] = [
      ["dup-1", "same", "running", false, "2026-12-01T10:00:00Z"],
      ["dup-2", "same", "running", false, "2026-12-01T10:00:01Z"],
      ["dup-3", "same", "running", false, "2026-12-01T10:00:02Z"],
      ["asked-to-stop", "same", "running", true, "2026-12-01T09:00:00Z"],
      ["finished", "same", "done", false, "2026-12-01T08:00:00Z"],
      ["other", "other", "running", false, "2026-12-01T10:00:03Z"],
    ];
    for (const [id, inputKey, status, cancel, at] of rows) {
      await db.withSql((sql) =>
        sql.query(
          `INSERT INTO replay_jobs (id, project_id, filters, input_key, status, cancel_requested, created_at) VALUES ($1, $2, '{}', $3, $4, $5, $6)`,
          [id, projectId, inputKey, status, cancel, at],
        ),
      );
    }
    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(REPLAY_QUEUE, true)))).toEqual([REPLAY_QUEUE]);
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));

    const after = await db.prisma.replayJob.findMany({
      where: { projectId },
      orderBy: { id: "asc" },
      select: { id: true, status: true, error: true, heartbeatAt: true },
    });
    const dropped = "an identical replay was already queued; this one was dropped when Cuescope was upgraded";
    expect(after).toEqual([
      { id: "asked-to-stop", status: "running", error: null, heartbeatAt: null },
      { id: "dup-1", status: "running", error: null, heartbeatAt: null },
      { id: "dup-2", status: "cancelled", error: dropped, heartbeatAt: null },
      { id: "dup-3", status: "cancelled", error: dropped, heartbeatAt: null },
      { id: "finished", status: "done", error: null, heartbeatAt: null },
      { id: "other", status: "running", error: null, heartbeatAt: null },
    ]);
  }, 120_000);
});
