/**
 * The ingest baseline: the rows `ingestBatch` stores, written by plain multi-row INSERTs (500 rows
 * each) into a copy of the events table (same columns, indexes and unique constraints, no foreign
 * keys) — two `pg` clients on PostgreSQL, the one embedded connection on PGlite.
 */
import { Client } from "pg";
import type { Database } from "@/lib/server/db";
import { rawEventRow, rawInsert } from "./raw-insert";
import { BATCH, type RunEvents, type ScratchDatabase } from "./scale-db";

const TABLE = "events_raw_copy";

export interface RawInserter {
  /** How many clients write at once. */
  clients: number;
  /** Writes the runs' events (rows prepared first, untimed); returns the seconds the INSERTs took. */
  insert(runs: readonly RunEvents[], onRows: (done: number) => void): Promise<number>;
  close(): Promise<void>;
}

type Row = unknown[];
type Runner = (sql: string, params: unknown[]) => Promise<unknown>;

export async function rawInserter(db: Database, database: ScratchDatabase, projectId: string): Promise<RawInserter> {
  await db.prisma.$executeRawUnsafe(`CREATE TABLE "${TABLE}" (LIKE "events" INCLUDING ALL)`);
  const pgClients: Client[] = [];
  let runners: Runner[];
  if (database.kind === "postgres") {
    for (let i = 0; i < 2; i++) {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      pgClients.push(client);
    }
    runners = pgClients.map((client) => (sql, params) => client.query(sql, params));
  } else {
    runners = [(sql, params) => db.withSql((runner) => runner.query(sql, params))];
  }

  const rowsOf = async (runs: readonly RunEvents[]): Promise<Row[][]> => {
    const pks = await db.prisma.run.findMany({
      where: { projectId, runId: { in: runs.map((r) => r.runId) } },
      select: { id: true, runId: true },
    });
    const runPk = new Map(pks.map((r) => [r.runId, r.id]));
    return runs.map((run) => run.events.map((e) => rawEventRow(projectId, runPk.get(e.runId), e)));
  };

  return {
    clients: runners.length,
    async insert(runs, onRows) {
      const perRun = await rowsOf(runs);
      let done = 0;
      const started = process.hrtime.bigint();
      // Like the senders: client k writes runs k, k + clients, ...
      await Promise.all(
        runners.map(async (run, k) => {
          for (let r = k; r < perRun.length; r += runners.length) {
            for (let i = 0; i < perRun[r].length; i += BATCH) {
              const slice = perRun[r].slice(i, i + BATCH);
              const { sql, params } = rawInsert(TABLE, slice);
              await run(sql, params);
              onRows((done += slice.length));
            }
          }
        }),
      );
      return Number(process.hrtime.bigint() - started) / 1e9;
    },
    async close() {
      await Promise.all(pgClients.map((client) => client.end()));
    },
  };
}
