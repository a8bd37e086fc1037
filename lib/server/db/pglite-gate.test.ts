import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { asBackgroundWork, gatedPglite, REQUESTS_BEFORE_BACKGROUND } from "./pglite-gate";

/**
 * PGlite answers statements queued behind one another in one microtask chain, so the event loop
 * gets no turn until the queue is drained; through the gate it turns between two statements.
 * Asserted by order (no timing): what a setImmediate scheduled next to the queue sees.
 */
describe("the PGlite gate", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create("memory://");
    await pglite.exec("CREATE TABLE t (n int)");
  }, 60_000);
  afterAll(() => pglite.close());

  it("lets the event loop turn between queued statements, in the order they were issued", async () => {
    const db = gatedPglite(pglite);
    const order: string[] = [];
    const statements = Array.from({ length: 6 }, (_, i) =>
      db.query("SELECT count(*) FROM generate_series(1, 20000)").then(() => order.push(`q${i}`)),
    );
    setImmediate(() => order.push("loop"));
    await Promise.all(statements);
    // The loop's turn comes before the last statement ran.
    expect(order.indexOf("loop")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("loop")).toBeLessThan(order.indexOf("q5"));
    expect(order.filter((s) => s !== "loop")).toEqual(["q0", "q1", "q2", "q3", "q4", "q5"]);
  });

  it("keeps a transaction to itself: a statement issued during it runs after its commit", async () => {
    const db = gatedPglite(pglite);
    const seen: number[] = [];
    let inside: Promise<unknown> = Promise.resolve();
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES (1)");
      inside = db.query<{ c: number }>("SELECT count(*)::int AS c FROM t").then((r) => seen.push(r.rows[0].c));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await tx.query("INSERT INTO t VALUES (2)");
    });
    await inside;
    expect(seen).toEqual([2]);
  });

  it("starts requests' statements before background work's queued earlier, each queue in its order", async () => {
    const db = gatedPglite(pglite);
    const order: string[] = [];
    const query = (name: string) => db.query("SELECT count(*) FROM generate_series(1, 2000)").then(() => order.push(name));
    // Background work: its statements, also those after an await or from a timer inside it.
    const background = asBackgroundWork(async () => {
      const first = [query("b0"), query("b1")];
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Promise.all([...first, query("b2")]);
    });
    const requests = [query("r0"), query("r1")];
    await new Promise((resolve) => setTimeout(resolve, 0));
    requests.push(query("r2"));
    await Promise.all([background, ...requests]);
    expect(order.filter((s) => s.startsWith("r"))).toEqual(["r0", "r1", "r2"]);
    expect(order.filter((s) => s.startsWith("b"))).toEqual(["b0", "b1", "b2"]);
    // No background statement started while a request's was waiting.
    expect(order.indexOf("r1")).toBeLessThan(order.indexOf("b0"));
  });

  it("sees background work marked by another copy of this module (a production build bundles it more than once)", async () => {
    // The database is opened from one bundle's copy (its gate), the replay workers mark their work
    // with another's asBackgroundWork: a fresh import of the module is such a second copy.
    vi.resetModules();
    const other = await import("./pglite-gate");
    expect(other.asBackgroundWork).not.toBe(asBackgroundWork);
    const db = gatedPglite(pglite);
    const order: string[] = [];
    const query = (name: string) => db.query("SELECT count(*) FROM generate_series(1, 2000)").then(() => order.push(name));
    const background = other.asBackgroundWork(() => Promise.all([query("b0"), query("b1")]));
    const requests = [query("r0"), query("r1")];
    await Promise.all([background, ...requests]);
    // Both of the requests' statements, issued after the background ones, ran first.
    expect(order).toEqual(["r0", "r1", "b0", "b1"]);
  });

  it("keeps background work its share while requests' statements keep coming", async () => {
    const db = gatedPglite(pglite);
    const order: string[] = [];
    const query = (name: string) => db.query("SELECT 1").then(() => order.push(name));
    // Requests arrive faster than they are answered: 4 are always waiting (each one answered queues another).
    let sent = 0;
    const stream = async (): Promise<void> => {
      while (sent < 60) await query(`r${sent++}`);
    };
    const requests = Promise.all([stream(), stream(), stream(), stream()]);
    // A job of sequential statements, as a replay's reads are.
    const job = asBackgroundWork(async () => {
      for (let i = 0; i < 5; i++) await query(`b${i}`);
    });
    await Promise.all([requests, job]);
    // Each background statement went after at most REQUESTS_BEFORE_BACKGROUND requests' (+1: the one
    // running when it was queued), not after the stream ran dry.
    const at = (name: string) => order.indexOf(name);
    let previous = -1;
    for (let i = 0; i < 5; i++) {
      const requestsBetween = order.slice(previous + 1, at(`b${i}`)).length;
      expect(requestsBetween).toBeLessThanOrEqual(REQUESTS_BEFORE_BACKGROUND + 1);
      previous = at(`b${i}`);
    }
    expect(at("b4")).toBeLessThan(at("r59"));
  });

  it("passes errors through and goes on with the next statement", async () => {
    const db = gatedPglite(pglite);
    await expect(db.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});
