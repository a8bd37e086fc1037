import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { testDatabases } from "@/lib/server/testing/databases";
import { CopyBinaryReader, CopyBytes, copyBinaryRows, copyTextRows, lastCopyRow, sqlLiteral } from "./copy-binary";

/** A binary COPY stream written from the format's description (not from the reader's code). */
function copyStream(rows: (string | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from("PGCOPY\n", "latin1"), Buffer.from([0xff, 0x0d, 0x0a, 0x00])];
  const int = (bytes: number, value: number) => {
    const b = Buffer.alloc(bytes);
    if (bytes === 2) b.writeInt16BE(value);
    else b.writeInt32BE(value);
    return b;
  };
  parts.push(int(4, 0), int(4, extension.length), extension);
  for (const row of rows) {
    parts.push(int(2, row.length));
    for (const field of row) {
      if (field === null) parts.push(int(4, -1));
      else parts.push(int(4, Buffer.byteLength(field)), Buffer.from(field));
    }
  }
  parts.push(int(2, -1));
  return Buffer.concat(parts);
}

const decoded = (rows: (Uint8Array | null)[][]) => rows.map((row) => row.map((f) => (f === null ? null : Buffer.from(f).toString())));

describe("binary COPY stream reader", () => {
  const rows = [["1", null, '[{"text":"é — ✓ 🎉"}]'], ["", "x"], []];

  it("reads rows of bytes however the stream is split, and never refers to a piece handed in", () => {
    const stream = copyStream(rows, Buffer.from("ext"));
    expect(decoded(copyBinaryRows([stream]))).toEqual(rows);
    for (let cut = 1; cut < stream.length; cut++) {
      // The pieces are overwritten once handed in, as node-postgres reuses its read buffer.
      const first = Buffer.from(stream.subarray(0, cut));
      const second = Buffer.from(stream.subarray(cut));
      const reader = new CopyBinaryReader();
      reader.push(first);
      first.fill(0);
      reader.push(second);
      second.fill(0);
      expect(decoded(reader.finish())).toEqual(rows);
    }
    // One byte at a time.
    expect(decoded(copyBinaryRows([...stream].map((byte) => Uint8Array.of(byte))))).toEqual(rows);
  });

  it("with owned pieces, hands out each field as a view of the piece it lies in, however the stream is split", () => {
    const stream = copyStream(rows, Buffer.from("ext"));
    const read = copyBinaryRows([stream], { owned: true });
    expect(decoded(read)).toEqual(rows);
    // Not copies: the piece's own memory.
    for (const field of read.flat()) if (field !== null) expect(field.buffer).toBe(stream.buffer);
    for (let cut = 1; cut < stream.length; cut++) {
      const pieces = [Buffer.from(stream.subarray(0, cut)), Buffer.from(stream.subarray(cut))];
      expect(decoded(copyBinaryRows(pieces, { owned: true }))).toEqual(rows);
    }
  });

  it("counts a whole stream's rows and reads its last one alone, with or without a header extension", () => {
    for (const extension of [Buffer.alloc(0), Buffer.from("ext")]) {
      const { rows: count, last } = lastCopyRow(copyStream(rows, extension));
      expect(count).toBe(3);
      expect(decoded([last!])).toEqual([[]]);
      const two = lastCopyRow(copyStream(rows.slice(0, 2), extension));
      expect({ rows: two.rows, last: decoded([two.last!])[0] }).toEqual({ rows: 2, last: ["", "x"] });
      expect(lastCopyRow(copyStream([], extension))).toEqual({ rows: 0, last: null });
    }
    const stream = copyStream(rows);
    expect(() => lastCopyRow(stream.subarray(0, stream.length - 2))).toThrow(/cut short/);
    expect(() => lastCopyRow(Buffer.from("not a stream at all"))).toThrow(/signature/);
  });

  it("reads a whole stream's fields as UTF-8 text, NULL as null, also from a view into a larger buffer", () => {
    expect(copyTextRows(copyStream(rows, Buffer.from("ext")))).toEqual(rows);
    const stream = copyStream(rows);
    const larger = new Uint8Array(stream.length + 10);
    larger.set(stream, 5);
    expect(copyTextRows(larger.subarray(5, 5 + stream.length))).toEqual(rows);
    expect(copyTextRows(copyStream([]))).toEqual([]);
    expect(() => copyTextRows(stream.subarray(0, stream.length - 3))).toThrow(/cut short/);
  });

  it("keeps a stream's bytes as they were, in one buffer of its own, however it was split", () => {
    const stream = copyStream(rows);
    const sink = new CopyBytes();
    for (let at = 0; at < stream.length; at += 7) {
      const piece = Buffer.from(stream.subarray(at, at + 7));
      sink.push(piece);
      piece.fill(0); // reused by whoever handed it in
    }
    const bytes = sink.finish();
    expect(Buffer.from(bytes)).toEqual(stream);
    expect({ offset: bytes.byteOffset, length: bytes.buffer.byteLength }).toEqual({ offset: 0, length: stream.length });
  });

  it("refuses a stream that is not one or was cut short", () => {
    expect(() => copyBinaryRows([Buffer.from("PGCOPY\n\0\0\0\0\0\0\0\0\0\0\0\0")])).toThrow(/signature/);
    const stream = copyStream(rows);
    expect(() => copyBinaryRows([stream.subarray(0, stream.length - 2)])).toThrow(/cut short/);
    expect(() => copyBinaryRows([stream.subarray(0, stream.length - 5)])).toThrow(/cut short/);
  });
});

describe.each(testDatabases())("Database.copyRows on $name", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("hands back each field's UTF-8 bytes as stored, NULL as null, in the statement's order", async () => {
    const texts = ["plain", "it's", "back\\slash\\'", "é — ✓ 🎉", '\n\t"quoted"'];
    const select = texts.map((text, i) => `SELECT ${i} AS "i", ${sqlLiteral(text)}::text AS "t", NULL::text AS "n"`).join(" UNION ALL ");
    const rows = await db.copyRows(`SELECT "i"::text, "t", "n" FROM (${select}) AS "all" ORDER BY "i" DESC`);
    expect(rows.map((row) => row.map((f) => (f === null ? null : Buffer.from(f))))).toEqual(
      texts.map((text, i) => [Buffer.from(String(i)), Buffer.from(text, "utf8"), null]).reverse(),
    );
  });

  it("hands back the whole stream as bytes in a buffer of its own, the same rows as copyRows reads", async () => {
    const select = `SELECT g::text, repeat('é', g) FROM generate_series(1, 300) AS g`;
    const bytes = await db.copyBytes(select);
    expect({ offset: bytes.byteOffset, length: bytes.buffer.byteLength }).toEqual({ offset: 0, length: bytes.byteLength });
    const rows = decoded(copyBinaryRows([bytes]));
    expect(rows).toHaveLength(300);
    expect(rows[299]).toEqual(["300", "é".repeat(300)]);
    expect(rows).toEqual(decoded(await db.copyRows(select)));
  });

  it("fails with the database's error and goes on working after it", async () => {
    await expect(db.copyBytes(`SELECT 1/0`)).rejects.toThrow(/division by zero/);
    await expect(db.copyRows(`SELECT 1/0`)).rejects.toThrow(/division by zero/);
    expect(await db.copyRows(`SELECT 'ok'::text`)).toEqual([[Buffer.from("ok")]]);
  });

  it("keeps each COPY's bytes its own: large ones, ones at once, and after one that failed half-way", async () => {
    const large = (n: number) => `SELECT g::text, repeat(chr(97 + g % 26), 1000) FROM generate_series(1, ${n}) AS g`;
    // Rows are written before the error: what they wrote must not end up in the next COPY's bytes.
    await expect(
      db.copyBytes(`SELECT CASE WHEN g < 500 THEN repeat('x', 1000) ELSE (1 / (g - g))::text END FROM generate_series(1, 600) AS g`),
    ).rejects.toThrow(/division by zero/);
    const [a, b, c] = await Promise.all([db.copyBytes(large(3000)), db.copyBytes(large(2)), db.copyRows(large(700))]);
    expect(decoded(copyBinaryRows([a]))).toEqual(
      Array.from({ length: 3000 }, (_, i) => [String(i + 1), String.fromCharCode(97 + ((i + 1) % 26)).repeat(1000)]),
    );
    expect(decoded(copyBinaryRows([b]))).toEqual([1, 2].map((g) => [String(g), String.fromCharCode(97 + g).repeat(1000)]));
    expect(decoded(c)).toHaveLength(700);
  });
});
