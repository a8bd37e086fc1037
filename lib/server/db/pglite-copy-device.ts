import type { PGlite } from "@electric-sql/pglite";

/** Where a COPY TO of the embedded database writes (copyToDevice). */
export const COPY_DEVICE_PATH = "/dev/cuescope-copy";

/** Bytes a COPY's buffer starts with; it doubles as the output grows. */
const FIRST_CAPACITY = 256 * 1024;

/** Emscripten's errno numbers (its ERRNO_CODES) for what the device refuses. */
const EBUSY = 10;
const ENOSPC = 51;

/**
 * A device of PGlite's file system that collects what a `COPY … TO '/dev/cuescope-copy'` writes
 * into one growing buffer, handed back whole when the COPY closes it.
 *
 * PGlite's own `/dev/blob` keeps a copy of every write (one per row) and joins them into a Blob at
 * the end, which is then read back through a web stream: about 3 copies and a JavaScript object
 * per row, all on the thread that serves requests (a what-if replay of 200k events spent ~0.5 s of
 * its ~2.5 s on it). Here each write is copied once, into a buffer that grows by doubling; the end
 * is one copy of the bytes written into memory of their own (transferable to a thread).
 */
export function copyToDevice(pglite: PGlite): { take(): Uint8Array; discard(): void } {
  const { FS } = pglite.Module;
  // A device callback must fail with FS.ErrnoError: Emscripten turns only that into an errno that
  // PostgreSQL reports as an ordinary error (and recovers from); anything else would unwind through
  // the WebAssembly stack past PostgreSQL's own error handling.
  const refuse = (errno: number): never => {
    throw new (FS as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError(errno);
  };
  let buffer = new Uint8Array(0);
  let used = 0;
  let open = false;
  const finished: Uint8Array[] = [];
  const device = FS.makedev(64, 7);
  FS.registerDevice(device, {
    open: () => {
      if (open) refuse(EBUSY);
      open = true;
      used = 0;
      if (buffer.byteLength === 0) buffer = new Uint8Array(FIRST_CAPACITY);
    },
    close: () => {
      if (!open) return;
      open = false;
      finished.push(buffer.slice(0, used));
      // A large buffer is not kept for the next COPY (it may stay small): memory of one read, not of the largest.
      if (buffer.byteLength > 16 * FIRST_CAPACITY) buffer = new Uint8Array(0);
    },
    read: () => 0,
    write: (_stream: unknown, from: Uint8Array, offset: number, length: number) => {
      if (used + length > buffer.byteLength) {
        let capacity = Math.max(buffer.byteLength, FIRST_CAPACITY);
        while (used + length > capacity) capacity *= 2;
        let grown: Uint8Array<ArrayBuffer>;
        try {
          grown = new Uint8Array(capacity);
        } catch {
          return refuse(ENOSPC); // out of memory: the COPY fails as a statement, the database stays usable
        }
        grown.set(buffer.subarray(0, used));
        buffer = grown;
      }
      // A view of the source's bytes as Uint8Array (Emscripten passes its HEAP8, an Int8Array): one memcpy.
      buffer.set(new Uint8Array(from.buffer, from.byteOffset + offset, length), used);
      used += length;
      return length;
    },
    llseek: (stream: { position: number }, offset: number, whence: number) => (whence === 1 ? stream.position + offset : offset),
  } as never);
  FS.mkdev(COPY_DEVICE_PATH, device);
  return {
    /**
     * What the last COPY to the device wrote: call after its statement settled, before the next
     * statement starts (statements on the embedded database run one at a time).
     */
    take() {
      const bytes = finished.pop();
      finished.length = 0;
      if (!bytes) throw new Error(`no COPY to ${COPY_DEVICE_PATH} was finished`);
      return bytes;
    },
    /** Forgets what a failed COPY wrote, and a COPY left open by it. */
    discard() {
      finished.length = 0;
      open = false;
      used = 0;
    },
  };
}
