/**
 * At most `limit` tasks of one project at once in this process; other projects' tasks are not held
 * up behind them. Tasks beyond the limit wait their turn in order.
 */
export class ProjectLimits {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly limit: number) {}

  async run<T>(projectId: string, task: () => Promise<T>): Promise<T> {
    await this.acquire(projectId);
    try {
      return await task();
    } finally {
      this.release(projectId);
    }
  }

  /** Tasks of the project running now (for tests and the health report). */
  active(projectId: string): number {
    return this.running.get(projectId) ?? 0;
  }

  private acquire(projectId: string): Promise<void> {
    const count = this.running.get(projectId) ?? 0;
    if (count < this.limit) {
      this.running.set(projectId, count + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(projectId) ?? [];
      queue.push(resolve);
      this.waiting.set(projectId, queue);
    });
  }

  private release(projectId: string): void {
    const next = this.waiting.get(projectId)?.shift();
    if (next) {
      next(); // the slot passes straight to the next waiter
      return;
    }
    this.waiting.delete(projectId);
    const count = (this.running.get(projectId) ?? 1) - 1;
    if (count === 0) this.running.delete(projectId);
    else this.running.set(projectId, count);
  }
}
