import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { createKey } from "@/lib/server/auth/keys";
import { smallRun } from "@/lib/server/testing/events";
import { tempDataDir, testDatabases } from "@/lib/server/testing/databases";
import { DataDirLockedError, openDatabase, type Database } from ".";
import { lockPathFor } from "./lock";
import { applyMigrations, listMigrations } from "./migrate";

const root = join(__dirname, "..", "..", "..");
const run = promisify(execFile);

describe("embedded database directory", () => {
  it("keeps data across a restart and releases its lock on close", async () => {
    const dataDir = tempDataDir();
    const first = await openDatabase({ url: "", dataDir });
    expect(existsSync(lockPathFor(dataDir))).toBe(true);
    await createKey(first, "persist");
    const project = await first.prisma.project.findUniqueOrThrow({ where: { name: "persist" } });
    await ingestBatch(first, project.id, smallRun("kept", 3));
    await first.close();
    expect(existsSync(lockPathFor(dataDir))).toBe(false);

    const second = await openDatabase({ url: "", dataDir });
    expect(await second.prisma.event.count()).toBe(smallRun("kept", 3).length);
    expect(await second.prisma.run.findFirst({ select: { runId: true, status: true } })).toEqual({ runId: "kept", status: "completed" });
    await second.close();
  }, 60_000);

  it("refuses a second opener with an error naming the holder, in this process and in another", async () => {
    const dataDir = tempDataDir();
    const db = await openDatabase({ url: "", dataDir, serverUrl: "http://127.0.0.1:3999" });
    try {
      const failure = await openDatabase({ url: "", dataDir }).catch((error) => error);
      expect(failure).toBeInstanceOf(DataDirLockedError);
      expect(failure.message).toContain(`process ${process.pid}`);
      expect(failure.message).toContain("http://127.0.0.1:3999");

      const script = `import { openDatabase } from ${JSON.stringify(join(root, "lib/server/db/index.ts"))};
        await openDatabase({ url: "", dataDir: ${JSON.stringify(dataDir)} });`;
      const file = join(dataDir, "..", "second-opener.mts");
      writeFileSync(file, script);
      const other = await run(join(root, "node_modules/.bin/tsx"), [file], { cwd: root }).catch((error) => error);
      expect(other.code).not.toBe(0);
      expect(other.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("takes over a lock left by a process that is gone", async () => {
    const dataDir = tempDataDir();
    const first = await openDatabase({ url: "", dataDir });
    await first.close();
    writeFileSync(
      lockPathFor(dataDir),
      JSON.stringify({
        pid: 2 ** 22 + 1,
        hostname: (await import("node:os")).hostname(),
        command: "gone",
        startedAt: "2026-01-01T00:00:00Z",
      }),
    );
    const db = await openDatabase({ url: "", dataDir });
    expect(JSON.parse(readFileSync(lockPathFor(dataDir), "utf8")).pid).toBe(process.pid);
    await db.close();
  }, 60_000);
});

describe.each(testDatabases())("migrations on $name", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("records every committed migration as prisma migrate deploy does, and applies nothing twice", async () => {
    const rows = await db.withSql((sql) =>
      sql.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
        `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
      ),
    );
    const committed = listMigrations(join(root, "prisma", "migrations"));
    expect(rows.map((r) => r.migration_name)).toEqual(committed.map((m) => m.name));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at !== null)).toBe(true);
    expect(await db.withSql((sql) => applyMigrations(sql))).toEqual([]);
  });

  it("refuses a migration that was edited after it was applied", async () => {
    await db.withSql((sql) => sql.exec(`UPDATE "_prisma_migrations" SET checksum = 'edited'`));
    await expect(db.withSql((sql) => applyMigrations(sql))).rejects.toThrow(/was changed after it was applied/);
    const { createHash } = await import("node:crypto");
    for (const m of listMigrations(join(root, "prisma", "migrations"))) {
      const sum = createHash("sha256").update(m.sql).digest("hex");
      await db.withSql((sql) => sql.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, [sum, m.name]));
    }
  });

  it("matches prisma/schema.prisma: every model's table, columns, types and nullability", async () => {
    const columns = await db.withSql((sql) =>
      sql.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; is_generated: string }>(
        `SELECT table_name, column_name, data_type, is_nullable, is_generated FROM information_schema.columns WHERE table_schema = current_schema()`,
      ),
    );
    // Generated columns are the migrations' own, not Prisma's (the models' comments name them): exactly these.
    const generated = columns.filter((c) => c.is_generated === "ALWAYS").map((c) => `${c.table_name}.${c.column_name}`);
    expect(generated.sort()).toEqual(["reviewer_rows.in_queue", "reviewer_rows.review_key"]);
    const actual = new Set(columns.map((c) => `${c.table_name}.${c.column_name}:${c.data_type}:${c.is_nullable}`));
    const expected = expectedColumns(readFileSync(join(root, "prisma", "schema.prisma"), "utf8"));
    expect(expected.length).toBeGreaterThan(20);
    for (const column of expected) expect(actual, column).toContain(column);
    const tables = new Set(expected.map((c) => c.split(".")[0]));
    expect(columns.filter((c) => tables.has(c.table_name) && c.is_generated !== "ALWAYS").length).toBe(expected.length);
  });
});

const SQL_TYPE: Record<string, string> = {
  String: "text",
  Int: "integer",
  Float: "double precision",
  BigInt: "bigint",
  Boolean: "boolean",
  Json: "jsonb",
  DateTime: "timestamp with time zone",
  Decimal: "numeric",
};

/** Prisma's native types (`@db.X`) that name another column type than the field type's default. */
const NATIVE_TYPE: Record<string, string> = { SmallInt: "smallint" };

/** `table.column:type:nullable` for every scalar field of every model in the Prisma schema. */
function expectedColumns(schema: string): string[] {
  const out: string[] = [];
  for (const [, body] of schema.matchAll(/^model \w+ \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body)![1];
    for (const line of body.split("\n")) {
      const m = /^\s+(\w+)\s+(\w+)(\[\])?(\??)(.*)$/.exec(line);
      if (!m || !SQL_TYPE[m[2]] || line.trim().startsWith("//")) continue;
      const column = /@map\("([^"]+)"\)/.exec(m[5])?.[1] ?? m[1];
      // A list (String[]) is a PostgreSQL array, whatever its element type; a native type (@db.X) wins over the default.
      const native = /@db\.(\w+)/.exec(m[5])?.[1];
      const type = m[3] ? "ARRAY" : native && NATIVE_TYPE[native] ? NATIVE_TYPE[native] : SQL_TYPE[m[2]];
      out.push(`${table}.${column}:${type}:${m[4] ? "YES" : "NO"}`);
    }
  }
  return out;
}
