import { defineConfig } from "prisma/config";

// Prisma's CLI looks for its native schema engine before every command, even `generate`, and
// downloads it when missing — which fails offline. Generating the client needs no engine, so point
// the CLI at any existing file unless a real engine was configured (see README, "Migrations").
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/cuescope-unused" },
});
