-- API keys get a scope and a last use (issue 25): `ingest` sends telemetry only (ingest, OTLP, an
-- experiment's assignment); `read` reads everything and changes nothing; `admin` does everything,
-- as every key did before, so existing keys keep working as they were. lib/server/auth/access.ts
-- says which scope each endpoint needs. `last_used_at` is written at most once a minute per key and
-- process (lib/server/auth/last-used.ts), never on the request's own path.

ALTER TABLE "api_keys" ADD COLUMN "scope" TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("scope" IN ('ingest', 'read', 'admin'));
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);
