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

/** What reads a binary COPY stream given in pieces as they arrive (a piece may be reused once `push` returns). */
export interface CopySink<T> {
  push(piece: Uint8Array): void;
  /** What was read, once the stream is over. */
  finish(): T;
}

/**
 * The stream's bytes as they are, in one buffer of its own (its whole ArrayBuffer: it can be
 * transferred to another thread), for rows read elsewhere (copyBinaryRows).
 */
export class CopyBytes implements CopySink<Uint8Array> {
  private readonly pieces: Uint8Array[] = [];
  private length = 0;

  push(piece: Uint8Array): void {
    this.pieces.push(Uint8Array.prototype.slice.call(piece));
    this.length += piece.byteLength;
  }

  finish(): Uint8Array {
    const bytes = new Uint8Array(this.length);
    let at = 0;
    for (const piece of this.pieces) {
      bytes.set(piece, at);
      at += piece.byteLength;
    }
    return bytes;
  }
}

/** How a binary COPY reader hands out its fields. */
export interface CopyReadOptions {
  /** The pieces are handed over for good: a field is a view of the piece it lies in (see CopyBinaryReader). */
  owned?: boolean;
  /**
   * Where a field copied out of a piece goes (default: memory of its own), e.g. a SlabLease's
   * `take` (lib/server/db/slab-pool.ts). Not used for owned pieces, whose fields are not copied.
   */
  allocate?: (size: number) => Uint8Array;
}

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
export class CopyBinaryReader implements CopySink<CopyRow[]> {
  readonly rows: CopyRow[] = [];
  constructor(private readonly options: CopyReadOptions = {}) {}
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
      const allocate = this.options.allocate;
      this.rows.push(
        spans.map(([from, to]) => {
          if (from === -1) return null;
          if (owned) return data.subarray(from, to);
          if (!allocate) return Uint8Array.prototype.slice.call(data, from, to);
          const field = allocate(to - from);
          field.set(data.subarray(from, to));
          return field;
        }),
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

/** A whole stream (one buffer) as a Buffer over the same bytes, and where its rows start. */
function wholeStream(stream: Uint8Array): { data: Buffer; rowsAt: number } {
  const data = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  const fixed = SIGNATURE.length + 8;
  if (data.length < fixed || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error("not a binary COPY stream (no PGCOPY signature)");
  return { data, rowsAt: fixed + data.readUInt32BE(SIGNATURE.length + 4) };
}

/**
 * Walks the rows of a whole stream from `at`: calls `field(start, end)` for each field (start -1:
 * NULL) and `rowEnd(rowAt, fields)` after each row; returns where the end mark starts.
 */
function walkRows(
  data: Buffer,
  at: number,
  field: (start: number, end: number) => void,
  rowEnd: (rowAt: number, fields: number) => void,
): number {
  for (;;) {
    if (at + 2 > data.length) throw new Error("binary COPY stream cut short");
    const fields = data.readInt16BE(at);
    if (fields === -1) return at;
    const rowAt = at;
    at += 2;
    for (let f = 0; f < fields; f++) {
      if (at + 4 > data.length) throw new Error("binary COPY stream cut short");
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) field(-1, -1);
      else {
        if (at + length > data.length) throw new Error("binary COPY stream cut short");
        field(at, at + length);
        at += length;
      }
    }
    rowEnd(rowAt, fields);
  }
}

/**
 * How many rows a whole binary COPY stream (one buffer) holds, and its last row, read without
 * copying or decoding the others: what a paged read needs to ask for the next page.
 */
export function lastCopyRow(stream: Uint8Array): { rows: number; last: CopyRow | null } {
  const { data, rowsAt } = wholeStream(stream);
  let rows = 0;
  let lastAt = -1;
  const endAt = walkRows(
    data,
    rowsAt,
    () => {},
    (rowAt) => {
      rows++;
      lastAt = rowAt;
    },
  );
  if (lastAt < 0) return { rows, last: null };
  // The last row alone, read as a stream of its own: the header, the row, the end mark.
  const last = copyBinaryRows([data.subarray(0, rowsAt), data.subarray(lastAt, endAt), Buffer.from([0xff, 0xff])])[0];
  return { rows, last };
}

/**
 * The rows of a whole binary COPY stream (one buffer) with every field read as UTF-8 text (null
 * for NULL), straight from the stream's bytes (no copy of a field's bytes first).
 */
export function copyTextRows(stream: Uint8Array): (string | null)[][] {
  const { data, rowsAt } = wholeStream(stream);
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  walkRows(
    data,
    rowsAt,
    (start, end) => row.push(start === -1 ? null : data.toString("utf8", start, end)),
    () => {
      rows.push(row);
      row = [];
    },
  );
  return rows;
}

/** The rows of a whole binary COPY stream (`owned`: see CopyBinaryReader). */
export function copyBinaryRows(pieces: Iterable<Uint8Array>, options: CopyReadOptions = {}): CopyRow[] {
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
