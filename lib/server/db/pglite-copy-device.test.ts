import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_DEVICE_PATH, copyToDevice } from "./pglite-copy-device";

// The device's own refusals, through PGlite's file system directly (the COPY path is in copy-binary.test.ts).
describe("the COPY device of the embedded database", () => {
  let pglite: PGlite;
  let device: ReturnType<typeof copyToDevice>;
  beforeAll(async () => {
    pglite = await PGlite.create();
    device = copyToDevice(pglite);
  }, 60_000);
  afterAll(() => pglite.close());

  type Fs = {
    open(path: string, flags: string): unknown;
    write(s: unknown, b: Uint8Array, o: number, n: number): number;
    close(s: unknown): void;
  };
  const fs = () => pglite.Module.FS as unknown as Fs;

  it("refuses a second open with an errno (an ordinary error for PostgreSQL), and a discard frees it", async () => {
    const first = fs().open(COPY_DEVICE_PATH, "w");
    let refused: unknown;
    try {
      fs().open(COPY_DEVICE_PATH, "w");
    } catch (error) {
      refused = error;
    }
    // Emscripten's FS.ErrnoError with EBUSY (10), not a plain Error that would unwind past PostgreSQL.
    expect(refused).toMatchObject({ errno: 10 });
    fs().write(first, new Uint8Array([1, 2, 3]), 0, 3);
    device.discard(); // as after a failed COPY: the device is free again and nothing of it is handed back
    expect(() => device.take()).toThrow(/no COPY/);
    const second = fs().open(COPY_DEVICE_PATH, "w");
    fs().write(second, new Uint8Array([9, 8, 7, 6]), 1, 2);
    fs().close(second);
    expect([...device.take()]).toEqual([8, 7]);
    expect((await pglite.query<{ n: number }>(`SELECT 1 AS n`)).rows).toEqual([{ n: 1 }]);
  });

  it("reads from an Int8Array view of the heap as the bytes they are", () => {
    const stream = fs().open(COPY_DEVICE_PATH, "w");
    const heap = new Int8Array([-1, -128, 127, 0]);
    fs().write(stream, heap as unknown as Uint8Array, 0, 4);
    fs().close(stream);
    expect([...device.take()]).toEqual([255, 128, 127, 0]);
  });
});
