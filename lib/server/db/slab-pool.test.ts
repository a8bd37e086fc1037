import { describe, expect, it } from "vitest";
import { SLAB_BYTES, SlabPool } from "./slab-pool";

describe("SlabPool", () => {
  it("hands out a lease's takes from shared slabs, end to end, and a take larger than a slab as memory of its own", () => {
    const pool = new SlabPool();
    const lease = pool.lease();
    const a = lease.take(400_000);
    const b = lease.take(400_000);
    const c = lease.take(400_000); // does not fit the first slab's remaining 248,576 bytes
    expect(a.buffer).toBe(b.buffer);
    expect([a.byteOffset, b.byteOffset, a.length, b.length]).toEqual([0, 400_000, 400_000, 400_000]);
    expect(c.buffer).not.toBe(a.buffer);
    expect(c.byteOffset).toBe(0);
    const large = lease.take(SLAB_BYTES + 1);
    expect([large.length, large.buffer.byteLength]).toEqual([SLAB_BYTES + 1, SLAB_BYTES + 1]);
  });

  it("gives a released lease's slabs to the next lease, keeps at most maxFree, and refuses a take after release", () => {
    const pool = new SlabPool(1);
    const first = pool.lease();
    const one = first.take(SLAB_BYTES);
    const two = first.take(10);
    first.release();
    first.release(); // once
    expect(pool.idle).toBe(1); // two slabs given back, one kept
    expect(() => first.take(1)).toThrow(/after its release/);
    const again = pool.lease().take(5);
    expect([one.buffer, two.buffer]).toContain(again.buffer);
    expect(pool.idle).toBe(0);
  });
});
