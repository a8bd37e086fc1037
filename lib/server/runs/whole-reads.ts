import { env } from "@/lib/server/env";
import { DomainError } from "@/lib/server/errors";

/** Releases a permit; calling it again does nothing. */
export type Release = () => void;

/**
 * At most `limit()` reads of a whole run's decisions of one project at once in this process (a
 * 50,000-turn run's are tens of MB, read, sent or parsed over seconds). A read beyond it waits in
 * line up to `waitMs()`, then is refused as `unavailable` (503 with Retry-After): its project is
 * busy, and other projects' reads are never held up behind it. A permit is held until the read has
 * ended, a download until its last byte was taken or its client went away.
 */
export class WholeReads {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<{ grant: () => void }>>();

  constructor(
    private readonly limit: () => number = () => env("CUESCOPE_WHOLE_READS"),
    private readonly waitMs: () => number = () => env("CUESCOPE_WHOLE_READ_WAIT_MS"),
  ) {}

  /** A permit of the project's, once there is one; a DomainError `unavailable` after waiting `waitMs()` for it. */
  acquire(projectId: string): Promise<Release> {
    const count = this.running.get(projectId) ?? 0;
    if (count < this.limit()) {
      this.running.set(projectId, count + 1);
      return Promise.resolve(this.releaser(projectId));
    }
    return new Promise<Release>((resolve, reject) => {
      const queue = this.waiting.get(projectId) ?? [];
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser(projectId));
        },
      };
      const waitMs = this.waitMs();
      const timer = setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.waiting.get(projectId) === queue) this.waiting.delete(projectId);
        reject(
          new DomainError(
            "unavailable",
            `this project already has ${this.limit()} reads of a whole run's decisions under way; retry when one has ended`,
            undefined,
            Math.max(1, Math.ceil(waitMs / 1000)),
          ),
        );
      }, waitMs);
      queue.push(waiter);
      this.waiting.set(projectId, queue);
    });
  }

  /** Runs `read` under a permit of the project's. */
  async run<T>(projectId: string, read: () => Promise<T>): Promise<T> {
    const release = await this.acquire(projectId);
    try {
      return await read();
    } finally {
      release();
    }
  }

  /** Permits of the project's held now (for tests). */
  active(projectId: string): number {
    return this.running.get(projectId) ?? 0;
  }

  private releaser(projectId: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(projectId)?.shift();
      if (next) return next.grant(); // the permit passes straight to the next in line
      this.waiting.delete(projectId);
      const count = (this.running.get(projectId) ?? 1) - 1;
      if (count <= 0) this.running.delete(projectId);
      else this.running.set(projectId, count);
    };
  }
}

const globalForReads = globalThis as unknown as { cuescopeWholeReads?: WholeReads };

/** The process's one WholeReads (on globalThis: the production build has one copy of this module per layer). */
export function wholeReads(): WholeReads {
  return (globalForReads.cuescopeWholeReads ??= new WholeReads());
}
