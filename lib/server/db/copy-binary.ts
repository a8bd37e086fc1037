/**
 * PostgreSQL's binary COPY format (`COPY … TO … WITH (FORMAT binary)`), read: a text column comes
 * out as its bytes (UTF-8, the database's encoding), never decoded into a JavaScript string. This
 * is how a large text is read to be sent on as it is (lib/server/runs/stored-decisions.ts).
 *
 * The stream: an 11-byte signature, a 32-bit flags field, a 32-bit header extension length and
 * that many bytes; then per row a 16-bit field count and per field a 32-bit length (-1: NULL) and
 * that many bytes; then a 16-bit -1. All integers big-endian.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/** A row: each field's bytes (null for NULL). */
export type CopyRow = (Uint8Array | null)[];

/**
 * Reads a binary COPY stream given in pieces as they arrive (split anywhere). By default a piece
 * may be reused by whoever handed it in once `push` returns (node-postgres reuses its read buffer):
 * every field is copied out, and so is a row not complete yet, so the rows never refer to a piece.
 *
 * `owned`: the pieces are handed over for good (nobody writes to them again, as PGlite's blob of a
 * whole page): a field is then a view of the piece it lies in, never copied. Fresh memory is what
 * a whole-run read pays most for (the collections that much new external memory sets off): without
 * the copies a 64 MB read on PGlite took about a quarter less CPU.
 */
export class CopyBinaryReader {
  readonly rows: CopyRow[] = [];
  constructor(private readonly options: { owned?: boolean } = {}) {}
  /** Copies of the bytes not read yet (an incomplete row), and how many bytes it needs at least. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private needed = 0;
  private headerRead = false;
  private ended = false;

  push(piece: Uint8Array): void {
    let data = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (this.pending.length > 0) {
      // A row split across pieces is put together once all of it is there (linear in its size).
      this.pending.push(Buffer.from(data));
      this.pendingBytes += data.length;
      if (this.pendingBytes < this.needed) return;
      data = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    }
    let at = 0;
    if (!this.headerRead) {
      const fixed = SIGNATURE.length + 8;
      if (data.length < fixed) return this.keep(data, at, fixed);
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("not a binary COPY stream (no PGCOPY signature)");
      const extension = data.readUInt32BE(SIGNATURE.length + 4);
      if (data.length < fixed + extension) return this.keep(data, at, fixed + extension);
      at = fixed + extension;
      this.headerRead = true;
    }
    while (at < data.length) {
      if (this.ended) throw new Error("binary COPY stream: data after its end");
      if (at + 2 > data.length) return this.keep(data, at, at + 2);
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        continue;
      }
      // The whole row first, then its fields taken out (copied unless the pieces are owned).
      let end = at + 2;
      const spans: [number, number][] = [];
      for (let f = 0; f < fields; f++) {
        if (end + 4 > data.length) return this.keep(data, at, end + 4);
        const length = data.readInt32BE(end);
        end += 4;
        if (length === -1) {
          spans.push([-1, -1]);
          continue;
        }
        if (end + length > data.length) return this.keep(data, at, end + length);
        spans.push([end, end + length]);
        end += length;
      }
      const owned = this.options.owned === true;
      this.rows.push(
        spans.map(([from, to]) => (from === -1 ? null : owned ? data.subarray(from, to) : Uint8Array.prototype.slice.call(data, from, to))),
      );
      at = end;
    }
  }

  /** The rows, once the stream's end mark was read (else it was cut short). */
  finish(): CopyRow[] {
    if (!this.ended || this.pending.length > 0) throw new Error("binary COPY stream cut short");
    return this.rows;
  }

  /** Keeps a copy of data[from…] until there are at least `until - from` bytes of it. */
  private keep(data: Buffer, from: number, until: number): void {
    this.pending = [Buffer.from(data.subarray(from))];
    this.pendingBytes = data.length - from;
    this.needed = until - from;
  }
}

/** The rows of a whole binary COPY stream (`owned`: see CopyBinaryReader). */
export function copyBinaryRows(pieces: Iterable<Uint8Array>, options: { owned?: boolean } = {}): CopyRow[] {
  const reader = new CopyBinaryReader(options);
  for (const piece of pieces) reader.push(piece);
  return reader.finish();
}

/**
 * A string as an SQL literal, for the statements that cannot take parameters (COPY): quotes
 * doubled, and written E'…' with backslashes doubled when it has any (as node-postgres'
 * escapeLiteral), so it reads back as the same string whatever standard_conforming_strings says.
 */
export function sqlLiteral(value: string): string {
  if (value.includes("\0")) throw new Error("an SQL literal cannot hold a NUL character");
  const quoted = `'${value.replace(/'/g, "''").replace(/\\/g, "\\\\")}'`;
  return value.includes("\\") ? ` E${quoted}` : quoted;
}
