import { expect, test } from "@playwright/test";
import { apiTarget } from "@/e2e/support/targets";

test("health names the database each server runs on, and a key reads its runs", async ({ request }, info) => {
  const target = apiTarget(info);
  const health = await request.get("/api/v1/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, database: target.database });
  const runs = await request.get("/api/v1/runs", { headers: { authorization: `Bearer ${target.key}` } });
  expect(runs.status()).toBe(200);
});
