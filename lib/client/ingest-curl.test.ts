import { describe, expect, it } from "vitest";
import { ZEvent } from "@/lib/contracts";
import { API_KEY_PLACEHOLDER, ingestCurl } from "./ingest-curl";

describe("ingestCurl", () => {
  const ts = "2026-11-29T10:00:00.000Z";

  it("sends one valid run.started event to the given URL, the key taken from the shell variable", () => {
    const text = ingestCurl("http://127.0.0.1:3100/api/v1/ingest", ts);
    expect(text.split("\n")[0]).toBe("curl -X POST http://127.0.0.1:3100/api/v1/ingest \\");
    expect(text).toContain(`-H "Authorization: Bearer ${API_KEY_PLACEHOLDER}"`);
    const body = JSON.parse(/-d '(.*)'$/.exec(text)![1]) as { batch: unknown[] };
    expect(body.batch).toHaveLength(1);
    expect(ZEvent.safeParse(body.batch[0]).success).toBe(true);
  });
});
