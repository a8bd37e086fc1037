import { createConnection, createServer, type Server, type Socket } from "node:net";

type Mode = "pass" | "drop" | "stall";

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Bytes held while stalled, per direction; delivered in order when healed. */
  held: { up: Buffer[]; down: Buffer[] };
}

/**
 * A TCP proxy for fault tests: forwards 127.0.0.1:<port> to a PostgreSQL server until told to
 * `drop()` every connection (and refuse new ones), `stall()` (accept, but forward nothing either
 * way: a hung server or network), or `heal()` (forward again, stalled bytes included, as a server
 * that hung and came back). `stallOn(pattern)` / `dropOn(pattern)` trigger the fault the moment a
 * client sends bytes matching the pattern (e.g. mid-transaction on a given statement).
 */
export class FaultProxy {
  private server: Server;
  private pairs = new Set<Pair>();
  private mode: Mode = "pass";
  private trigger?: { pattern: RegExp; mode: "drop" | "stall"; fired: () => void };
  /** Connections accepted, ever (to see that the app reconnects). */
  accepted = 0;

  private constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(listenPort: number, upstream: { host: string; port: number }): Promise<FaultProxy> {
    const proxy = new FaultProxy(upstream.host, upstream.port);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once("error", reject);
      proxy.server.listen(listenPort, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  get state(): Mode {
    return this.mode;
  }

  drop(): void {
    this.mode = "drop";
    for (const pair of this.pairs) this.destroy(pair);
  }

  stall(): void {
    this.mode = "stall";
  }

  heal(): void {
    this.mode = "pass";
    this.trigger = undefined;
    for (const pair of this.pairs) {
      if (!pair.upstream) this.connectUpstream(pair);
      else this.flush(pair);
    }
  }

  /** Drops or stalls as soon as a client sends bytes matching `pattern`; resolves when it happened. */
  faultOn(pattern: RegExp, mode: "drop" | "stall"): Promise<void> {
    return new Promise((fired) => {
      this.trigger = { pattern, mode, fired };
    });
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) this.destroy(pair);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.accepted++;
    if (this.mode === "drop") {
      client.destroy();
      return;
    }
    const pair: Pair = { client, held: { up: [], down: [] } };
    this.pairs.add(pair);
    client.on("error", () => this.destroy(pair));
    client.on("close", () => this.destroy(pair));
    client.on("data", (chunk) => this.fromClient(pair, chunk));
    if (this.mode === "pass") this.connectUpstream(pair);
  }

  private connectUpstream(pair: Pair): void {
    const upstream = createConnection({ host: this.upstreamHost, port: this.upstreamPort });
    pair.upstream = upstream;
    upstream.on("error", () => this.destroy(pair));
    upstream.on("close", () => this.destroy(pair));
    upstream.on("data", (chunk) => {
      if (this.mode === "pass") pair.client.write(chunk);
      else pair.held.down.push(chunk);
    });
    upstream.on("connect", () => this.flush(pair));
  }

  private fromClient(pair: Pair, chunk: Buffer): void {
    const trigger = this.trigger;
    if (trigger && this.mode === "pass" && trigger.pattern.test(chunk.toString("latin1"))) {
      this.trigger = undefined;
      if (trigger.mode === "drop") this.drop();
      else this.stall();
      trigger.fired();
    }
    if (this.mode === "drop") return;
    if (this.mode === "pass" && pair.upstream && !pair.upstream.connecting) pair.upstream.write(chunk);
    else pair.held.up.push(chunk);
  }

  private flush(pair: Pair): void {
    if (this.mode !== "pass" || !pair.upstream || pair.upstream.connecting) return;
    for (const chunk of pair.held.up.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.held.down.splice(0)) pair.client.write(chunk);
  }

  private destroy(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream?.destroy();
  }
}
