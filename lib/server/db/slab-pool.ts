/**
 * Memory for bytes read from the database that is used again instead of freshly allocated: a read
 * takes a lease, copies what it reads into it (`take`), and gives it back (`release`) once nothing
 * refers to those bytes any more — only its owner can know when that is (the direct download, when
 * the socket has taken every piece of a page: lib/server/runs/run-reads.ts). A 64 MB whole-run
 * download read into fresh memory sets off full garbage collections of the server's heap; from a
 * pool it reuses a few megabytes.
 *
 * Memory is handed out from slabs of SLAB_BYTES; a take larger than a slab is a buffer of its own
 * (not pooled). A lease never released (a download cut short) is simply collected; the pool keeps
 * at most `maxFree` slabs it is not lending.
 */
export const SLAB_BYTES = 1 << 20;

export class SlabPool {
  private readonly free: Uint8Array[] = [];

  constructor(private readonly maxFree = 48) {}

  lease(): SlabLease {
    return new SlabLease(this);
  }

  /** Slabs the pool holds and does not lend (for tests). */
  get idle(): number {
    return this.free.length;
  }

  /** @internal */
  slab(): Uint8Array {
    return this.free.pop() ?? new Uint8Array(SLAB_BYTES);
  }

  /** @internal */
  giveBack(slabs: readonly Uint8Array[]): void {
    for (const slab of slabs) if (this.free.length < this.maxFree) this.free.push(slab);
  }
}

export class SlabLease {
  private readonly slabs: Uint8Array[] = [];
  private current: Uint8Array | null = null;
  private used = 0;
  private released = false;

  constructor(private readonly pool: SlabPool) {}

  /** `size` bytes of this lease's memory (their content is whatever was there: write all of them). */
  readonly take = (size: number): Uint8Array => {
    if (this.released) throw new Error("a slab lease used after its release");
    if (size > SLAB_BYTES) return new Uint8Array(size);
    if (this.current === null || this.used + size > SLAB_BYTES) {
      this.current = this.pool.slab();
      this.slabs.push(this.current);
      this.used = 0;
    }
    const bytes = this.current.subarray(this.used, this.used + size);
    this.used += size;
    return bytes;
  };

  /** Gives the memory back: whatever was taken from it may be overwritten by the next lease. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.giveBack(this.slabs);
    this.slabs.length = 0;
    this.current = null;
  }
}
