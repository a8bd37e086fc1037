// @ts-check

// Next.js' anonymous telemetry stays off however the app is started
// (scripts also export NEXT_TELEMETRY_DISABLED=1; a value set by the caller wins).
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The embedded Postgres (WASM) and its Prisma adapter load files at runtime, and the job threads'
  // entry registers tsx (which runs esbuild's binary): keep them out of the server bundle and
  // require them from node_modules. pg-boss too (it reads its own files' paths).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "tsx", "esbuild", "pg-boss"],
};

module.exports = nextConfig;
