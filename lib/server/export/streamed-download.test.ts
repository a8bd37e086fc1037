import { describe, expect, it } from "vitest";
import { directDocumentOf, streamedDocument, type DocumentPieces } from "./streamed-download";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A document of `count` one-byte pieces that records when it is closed. */
function pieces(count: number): DocumentPieces & { closed: boolean } {
  let given = 0;
  const document = {
    closed: false,
    next: async () => (given < count ? Uint8Array.of(0x30 + given++) : null),
    close: () => void (document.closed = true),
  };
  return document;
}

describe("streamedDocument's idle close", () => {
  it("stays open while it is read on, however long that takes, and closes once nobody has read it for idleMs", async () => {
    const document = pieces(100);
    const reader = streamedDocument(document, { label: "test", idleMs: 300 }).body!.getReader();
    // Read on every 50 ms for 500 ms (longer than idleMs): never idle that long.
    for (let i = 0; i < 10; i++) {
      expect((await reader.read()).done).toBe(false);
      await pause(50);
    }
    expect(document.closed).toBe(false);
    // Then nobody reads: closed within idleMs of the last read (plus a timer's slack), and the body fails.
    await pause(900);
    expect(document.closed).toBe(true);
    await expect(reader.read()).rejects.toThrow(/was not read for 300 ms/);
  });

  it("is not closed by its idle timer after it ended", async () => {
    const document = pieces(2);
    const text = await new Response(streamedDocument(document, { label: "test", idleMs: 20 }).body).text();
    expect(text).toBe("01");
    expect(document.closed).toBe(true);
    await pause(60); // the timer must not fire on a finished answer (it would error a closed stream)
  });

  it("closes an answer whose body is never read at all", async () => {
    const document = pieces(3);
    const response = streamedDocument(document, { label: "test", idleMs: 50 });
    expect(response.status).toBe(200);
    await pause(300);
    expect(document.closed).toBe(true);
  });

  it("hands its document over to a direct writer once, and then neither reads nor closes it", async () => {
    const document = pieces(3);
    const response = streamedDocument(document, { label: "test", idleMs: 50 });
    const direct = directDocumentOf(response);
    expect(direct).toMatchObject({ label: "test", idleMs: 50 });
    expect(direct?.document).toBe(document);
    expect(directDocumentOf(response)).toBeUndefined();
    await pause(300);
    expect(document.closed).toBe(false); // the direct writer's to close
    expect(directDocumentOf(new Response("{}"))).toBeUndefined();
  });
});
