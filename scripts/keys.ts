/**
 * `npm run keys -- create --project NAME [--label TEXT] [--scope ingest|read|admin]` prints a new
 * secret once (stored hashed); the scope is admin unless told (README, "API keys").
 * `npm run keys -- list [--project NAME]`, `npm run keys -- revoke ID_OR_PREFIX`.
 */
import { parseArgs } from "node:util";
import { ZKeyScope } from "@/lib/contracts";
import { createKey, listKeys, revokeKey } from "@/lib/server/auth/keys";
import { openDatabase } from "@/lib/server/db";

const USAGE =
  "usage: npm run keys -- create --project NAME [--label TEXT] [--scope ingest|read|admin] | list [--project NAME] | revoke ID_OR_PREFIX";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { project: { type: "string" }, label: { type: "string" }, scope: { type: "string" } },
  });
  const [command, arg] = positionals;
  if (
    !["create", "list", "revoke"].includes(command ?? "") ||
    (command === "create" && !values.project) ||
    (command === "revoke" && !arg) ||
    (values.scope !== undefined && !ZKeyScope.safeParse(values.scope).success)
  ) {
    console.error(USAGE);
    return 2;
  }
  const db = await openDatabase();
  try {
    if (command === "create") {
      const scope = values.scope === undefined ? undefined : ZKeyScope.parse(values.scope);
      const { secret, key } = await createKey(db, values.project!, values.label, { scope });
      console.error(`created ${key.scope} key ${key.prefix}… (id ${key.id}) for project "${key.project}" in ${db.label}.`);
      console.error("The secret is shown once; keep it:");
      console.log(secret);
    } else if (command === "list") {
      const keys = await listKeys(db, values.project);
      if (keys.length === 0) console.log("no keys");
      for (const k of keys) {
        console.log(
          `${k.id}  ${k.prefix}…  ${k.project.padEnd(16)} ${k.scope.padEnd(6)} ${k.revokedAt ? `revoked ${k.revokedAt}` : "active"}  created ${k.createdAt}${k.label ? `  ${k.label}` : ""}`,
        );
      }
    } else {
      const key = await revokeKey(db, arg!);
      console.log(`revoked ${key.prefix}… (id ${key.id}) of project "${key.project}"`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`keys: ${(error as Error).message}`);
    process.exit(2);
  },
);
