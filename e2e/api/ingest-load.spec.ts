/**
 * The short CI version of `npm run test:load`: ~10 s of overlapping batches from several senders
 * against each running server; no 5xx other than 503, and every acknowledged event stored once.
 */
import { expect, test } from "@playwright/test";
import { formatLoadReport, runLoad } from "@/lib/client/load";
import { apiTarget } from "@/e2e/support/targets";

test("a 10-second loopback load: no 5xx but 503, acknowledged == stored", async ({}, info) => {
  test.setTimeout(120_000);
  const target = apiTarget(info);
  const report = await runLoad({ url: target.baseURL, key: target.key, durationMs: 10_000, senders: 4, ratePerSender: 2, turnsPerRun: 6 });
  console.log(`${info.project.name}\n${formatLoadReport(report)}`);
  expect(report.serverErrorsOther503).toBe(0);
  expect(report.statuses.network ?? 0).toBe(0);
  expect(report.eventErrors).toBe(0);
  expect(report.missing).toEqual([]);
  expect(report.storedTwice).toEqual([]);
  expect(report.acknowledged).toBeGreaterThan(0);
  expect(report.stored).toBe(report.acknowledged);
});
