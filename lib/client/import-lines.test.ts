import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import type { Database } from "@/lib/server/db";
import { smallRun } from "@/lib/server/testing/events";
import { testDatabases } from "@/lib/server/testing/databases";
import { importLines } from "./import-lines";

describe("importing a JSON Lines file", () => {
  const [pglite] = testDatabases();
  let db: Database;
  let projectId: string;
  beforeAll(async () => {
    db = await pglite.open();
    projectId = (await db.prisma.project.create({ data: { name: "import" } })).id;
  }, 60_000);
  afterAll(async () => db?.close());

  it("stores every valid line, reports each bad one by line number, and reports progress", async () => {
    const events = smallRun("imported", 4);
    const lines = events.map((e) => JSON.stringify(e));
    lines.splice(2, 0, "{not json", "");
    lines.push(JSON.stringify({ ...events[1], id: "bad-turn", turn: -3 }));
    const progress: number[] = [];
    const sink = (batch: readonly unknown[]) => ingestBatch(db, projectId, batch);
    const tally = await importLines(lines.join("\n"), sink, { batchSize: 4, onProgress: (done) => progress.push(done) });

    expect(tally).toMatchObject({ events: events.length + 2, created: events.length, duplicate: 0 });
    expect(tally.errors.map((e) => [e.line, e.path])).toEqual([
      [3, "(root)"],
      [lines.length, "turn"],
    ]);
    expect(progress.at(-1)).toBe(events.length + 1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const again = await importLines(lines.join("\n"), sink);
    expect(again).toMatchObject({ created: 0, duplicate: events.length });
  });
});
