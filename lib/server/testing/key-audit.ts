import type { SqlRunner } from "@/lib/server/db/sql";

/** The column a distributed PostgreSQL (Citus) spreads a project's rows by: docs/deployment.md, "Citus". */
export const DISTRIBUTION_COLUMN = "project_id";

/**
 * Tables that stay whole on every node (Citus reference tables), each with why: they are small and
 * read before the project is known. docs/deployment.md lists the same ones.
 */
export const REFERENCE_TABLES: Readonly<Record<string, string>> = {
  projects: "the tenants themselves: one row per project",
  api_keys: "a Bearer key is looked up by its hash before its project is known",
  sessions: "a session cookie is looked up by its token's hash before its project is known",
  people: "a person signs in by email or single sign-on before any project is chosen",
  person_sessions: "a person's session cookie is looked up by its token before its project is known",
  person_accounts: "a password or single sign-on identity is looked up with its person",
  verifications: "a single sign-on's state, before anyone is signed in",
  project_members: "which projects a person may open is read at sign-in, before a project is chosen",
  invitations: "an invitation link is looked up by its token's hash before its project is known",
  one_time_links: "the setup link and password resets belong to no project",
  server_settings: "the server's own settings belong to no project",
};

/** The migration that made the reference tables added after the first three: a schema migrated only up to before it lacks them. */
const PEOPLE_MIGRATION = "20270102000000_people";
const MADE_BY: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "people",
    "person_sessions",
    "person_accounts",
    "verifications",
    "project_members",
    "invitations",
    "one_time_links",
    "server_settings",
  ].map((table) => [table, PEOPLE_MIGRATION]),
);

/** Bookkeeping that is no app data: the migration runner's own table. */
const NOT_APP_TABLES = new Set(["_prisma_migrations"]);

interface TableRow {
  table: string;
  columns: string[];
}
interface UniqueRow {
  table: string;
  index: string;
  columns: string[];
}
interface ForeignKeyRow {
  table: string;
  name: string;
  referenced: string;
  columns: string[];
  referencedColumns: string[];
}

/**
 * Reads the catalog (pg_class, pg_index, pg_constraint) of the current schema and names every key
 * a database distributed by project could not check inside one shard: a table of the app without
 * project_id, a unique index or foreign key of such a table that leaves project_id out, a foreign
 * key between two distributed tables that does not pair project_id with project_id, and a foreign
 * key from a reference table to a distributed one. Reference tables' own keys are theirs to keep.
 * Empty when the schema is fine.
 */
export async function keysWithoutProject(sql: SqlRunner): Promise<string[]> {
  // One after another: the runner is one connection.
  const tables = await sql.query<TableRow>(
    `SELECT c.relname::text AS "table",
              ARRAY(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS "columns"
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`,
  );
  const uniques = await sql.query<UniqueRow>(
    `SELECT c.relname::text AS "table", i.relname::text AS "index",
              ARRAY(SELECT a.attname::text FROM unnest(x.indkey::int2[]) AS k(attnum)
                      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) AS "columns"
         FROM pg_index x
         JOIN pg_class c ON c.oid = x.indrelid
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE x.indisunique AND n.nspname = current_schema() AND c.relkind IN ('r', 'p')`,
  );
  const foreignKeys = await sql.query<ForeignKeyRow>(
    `SELECT c.relname::text AS "table", con.conname::text AS "name", f.relname::text AS "referenced",
              ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, o)
                      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.o) AS "columns",
              ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, o)
                      JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.o) AS "referencedColumns"
         FROM pg_constraint con
         JOIN pg_class c ON c.oid = con.conrelid
         JOIN pg_class f ON f.oid = con.confrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE con.contype = 'f' AND n.nspname = current_schema()`,
  );
  const isReference = (table: string) => Object.hasOwn(REFERENCE_TABLES, table);
  const distributed = (table: string) => !isReference(table) && !NOT_APP_TABLES.has(table);
  const problems: string[] = [];
  for (const { table, columns } of tables) {
    if (distributed(table) && !columns.includes(DISTRIBUTION_COLUMN)) problems.push(`${table}: no ${DISTRIBUTION_COLUMN} column`);
  }
  for (const { table, index, columns } of uniques) {
    if (distributed(table) && !columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push(`${table}: unique index ${index} (${columns.join(", ")}) leaves out ${DISTRIBUTION_COLUMN}`);
    }
  }
  for (const fk of foreignKeys) {
    const at = fk.columns.indexOf(DISTRIBUTION_COLUMN);
    const named = `${fk.table}: foreign key ${fk.name} (${fk.columns.join(", ")}) → ${fk.referenced} (${fk.referencedColumns.join(", ")})`;
    if (isReference(fk.table)) {
      if (distributed(fk.referenced)) problems.push(`${named}: a reference table cannot point into a distributed one`);
    } else if (distributed(fk.table)) {
      if (at < 0) problems.push(`${named} leaves out ${DISTRIBUTION_COLUMN}`);
      else if (distributed(fk.referenced) && fk.referencedColumns[at] !== DISTRIBUTION_COLUMN) {
        problems.push(`${named} does not pair ${DISTRIBUTION_COLUMN} with ${DISTRIBUTION_COLUMN}`);
      }
    }
  }
  const tableNames = new Set(tables.map((t) => t.table));
  const applied = tableNames.has("_prisma_migrations")
    ? new Set(
        (await sql.query<{ name: string }>(`SELECT migration_name AS "name" FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`)).map(
          (r) => r.name,
        ),
      )
    : new Set<string>();
  for (const table of Object.keys(REFERENCE_TABLES)) {
    const madeBy = MADE_BY[table];
    if (madeBy && !applied.has(madeBy)) continue; // a schema from before the migration that makes it
    if (!tableNames.has(table)) problems.push(`${table}: listed as a reference table but missing`);
  }
  return problems.sort();
}
