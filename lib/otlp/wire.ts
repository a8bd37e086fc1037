/**
 * A minimal protobuf wire-format reader and writer: just what the OTLP messages Cuescope reads need
 * (docs/contract/otlp.md). Pure: bytes in, values out. A malformed or truncated message throws
 * WireError naming the message, the field and the byte offset; it never reads past the buffer.
 */

/** A body that is not valid protobuf (or not the message it claims to be). */
export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WireError";
  }
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

const WIRE_NAMES: Record<number, string> = {
  0: "varint",
  1: "fixed64",
  2: "length-delimited",
  3: "group start",
  4: "group end",
  5: "fixed32",
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** One field of a message: its number, wire type, and where its value is. */
export interface Field {
  number: number;
  wireType: number;
  /** Offset of the field's tag in the whole buffer (for error messages). */
  at: number;
}

/** Reads one message (a slice of the buffer); `what` names it in errors ("Span", "KeyValue"). */
export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    readonly what: string,
    private readonly start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  private fail(message: string, at = this.pos): never {
    throw new WireError(`${this.what} at byte ${at}: ${message}`);
  }

  /** The next field's tag. */
  next(): Field {
    const at = this.pos;
    const tag = this.varintNumber();
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (number === 0) this.fail("field number 0 is not valid protobuf", at);
    if (!(wireType in WIRE_NAMES) || wireType === 3 || wireType === 4) {
      this.fail(
        `field ${number} has wire type ${wireType}${WIRE_NAMES[wireType] ? ` (${WIRE_NAMES[wireType]})` : ""}, which OTLP never uses`,
        at,
      );
    }
    return { number, wireType, at };
  }

  /** Fails unless `field` has the wire type its definition says; `name` is the field's name. */
  expect(field: Field, wireType: number, name: string): void {
    if (field.wireType !== wireType) {
      this.fail(`field ${field.number} (${name}) should be ${WIRE_NAMES[wireType]}, got ${WIRE_NAMES[field.wireType]}`, field.at);
    }
  }

  /** Skips an unknown field's value. */
  skip(field: Field): void {
    switch (field.wireType) {
      case WIRE_VARINT:
        this.varint64();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        this.advance(this.length());
    }
  }

  private advance(n: number): number {
    const at = this.pos;
    if (n > this.end - this.pos) this.fail(`truncated: ${n} bytes needed, ${this.end - this.pos} left`);
    this.pos += n;
    return at;
  }

  /**
   * A varint that must fit a double exactly (tags, lengths: at most 2^53 − 1), read without BigInt —
   * the hot path of decoding. A bigger one fails (no OTLP tag or length is that big).
   */
  private varintNumber(): number {
    const at = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) this.fail("truncated varint", at);
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    // Longer than 8 bytes (56 bits): read whole as 64 bits, then it has to be a safe integer.
    this.pos = at;
    const big = this.varint64();
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`a tag or length of ${big} is out of range`, at);
    return Number(big);
  }

  /** A varint as an unsigned 64-bit value. */
  varint64(): bigint {
    const at = this.pos;
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) this.fail("truncated varint", at);
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result & 0xffffffffffffffffn;
    }
    return this.fail("varint longer than 10 bytes", at);
  }

  /** An int64 varint (two's complement). */
  int64(): bigint {
    return BigInt.asIntN(64, this.varint64());
  }

  /** An int32 or enum varint (negative values are sent as 10-byte varints). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.varint64()));
  }

  bool(): boolean {
    return this.varint64() !== 0n;
  }

  fixed64(): bigint {
    const at = this.advance(8);
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, 8).getBigUint64(0, true);
  }

  fixed32(): number {
    const at = this.advance(4);
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, 4).getUint32(0, true);
  }

  double(): number {
    const at = this.advance(8);
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, 8).getFloat64(0, true);
  }

  private length(): number {
    const at = this.pos;
    const n = this.varintNumber();
    if (n > this.end - this.pos) this.fail(`truncated: a length of ${n} bytes, ${this.end - this.pos} left`, at);
    return n;
  }

  bytes(): Uint8Array {
    const n = this.length();
    const at = this.advance(n);
    return this.buf.subarray(at, at + n);
  }

  string(name: string): string {
    const field = this.pos;
    const bytes = this.bytes();
    if (bytes.length <= 64) {
      // Short ASCII (attribute keys, most values) without the decoder's call overhead.
      let ascii = true;
      for (let i = 0; i < bytes.length && ascii; i++) ascii = bytes[i] < 0x80;
      if (ascii) return String.fromCharCode(...bytes);
    }
    try {
      return utf8.decode(bytes);
    } catch {
      return this.fail(`${name} is not valid UTF-8`, field);
    }
  }

  /** A nested message: a reader over its bytes. */
  message(what: string): WireReader {
    const n = this.length();
    const at = this.advance(n);
    return new WireReader(this.buf, what, at, at + n);
  }
}

/** Writes a message, field by field (only what the OTLP responses need). */
export class WireWriter {
  private readonly parts: number[] = [];

  private varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      this.parts.push(byte);
    } while (v !== 0n);
  }

  private tag(number: number, wireType: number): void {
    this.varint((BigInt(number) << 3n) | BigInt(wireType));
  }

  /** An int32/int64/enum field; zero is left out, as proto3 does. */
  int(number: number, value: number | bigint): this {
    if (BigInt(value) === 0n) return this;
    this.tag(number, WIRE_VARINT);
    this.varint(BigInt(value));
    return this;
  }

  /** A string field; empty is left out. */
  string(number: number, value: string): this {
    if (value === "") return this;
    return this.bytesField(number, new TextEncoder().encode(value));
  }

  /** A nested message field (written even when empty: its presence means something). */
  message(number: number, message: WireWriter): this {
    return this.bytesField(number, message.finish());
  }

  private bytesField(number: number, bytes: Uint8Array): this {
    this.tag(number, WIRE_LEN);
    this.varint(BigInt(bytes.length));
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}
