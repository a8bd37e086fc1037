import { DomainError } from "@/lib/server/errors";

/**
 * The wrong-credential limiter (issue #10): per client address, a bucket of BURST failures that
 * refills one failure every REFILL_SECONDS. Only FAILED Bearer authentications and failed sign-ins
 * take from it; while it is empty every such attempt from that address is refused with 429 and a
 * Retry-After BEFORE the credential is looked at, so guessing is bounded to BURST at once and then
 * 60 / REFILL_SECONDS per minute. Requests with a valid key never take from it.
 *
 * In-process: each server process counts on its own (one process under `npm start`), and a
 * restart forgets. Memory is bounded: at most MAX_TRACKED addresses; full buckets are dropped and,
 * when still over, the least recently failed address is forgotten first. IPv6 addresses count per
 * /64 (one host usually has the whole /64).
 */
export const AUTH_FAILURE_BURST = 10;
export const AUTH_FAILURE_REFILL_SECONDS = 6;
const MAX_TRACKED = 10_000;

interface Bucket {
  /** Failures still allowed, fractional while refilling. */
  tokens: number;
  updatedAt: number;
}

export class FailureLimiter {
  constructor(
    readonly burst = AUTH_FAILURE_BURST,
    readonly refillSeconds = AUTH_FAILURE_REFILL_SECONDS,
    private readonly now: () => number = Date.now,
    private readonly maxTracked = MAX_TRACKED,
    private readonly buckets = new Map<string, Bucket>(),
  ) {}

  /** Seconds until this address may try again; 0 when it may try now. */
  retryAfter(address: string): number {
    const bucket = this.current(limitKey(address));
    if (!bucket || bucket.tokens >= 1) return 0;
    return Math.max(1, Math.ceil((1 - bucket.tokens) * this.refillSeconds));
  }

  /** Records one failed attempt; returns the seconds to wait before the next, 0 when more may follow. */
  fail(address: string): number {
    const key = limitKey(address);
    const bucket = this.current(key) ?? { tokens: this.burst, updatedAt: this.now() };
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    this.buckets.delete(key); // re-insert: Map order = least recently failed first
    this.buckets.set(key, bucket);
    this.evict();
    return this.retryAfter(address);
  }

  /** Throws rate_limited when the address has no attempts left. */
  assertMayTry(address: string, what: string): void {
    const wait = this.retryAfter(address);
    if (wait > 0) {
      throw new DomainError(
        "rate_limited",
        `too many failed ${what} from your address (${this.burst} allowed at once, then one every ${this.refillSeconds} s); try again in ${wait} s`,
        undefined,
        wait,
      );
    }
  }

  get size(): number {
    return this.buckets.size;
  }

  private current(key: string): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (!bucket) return undefined;
    const now = this.now();
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updatedAt) / 1000 / this.refillSeconds);
    bucket.updatedAt = now;
    if (bucket.tokens >= this.burst) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  private evict(): void {
    if (this.buckets.size <= this.maxTracked) return;
    for (const key of [...this.buckets.keys()]) this.current(key); // drops refilled buckets
    const target = Math.floor(this.maxTracked * 0.9); // amortised: not a full sweep on every failure
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }
}

/** IPv4 as is; IPv6 by its /64. */
export function limitKey(address: string): string {
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

const globalForLimiter = globalThis as unknown as { cuescopeAuthFailures?: Map<string, Bucket> };
let limiter: FailureLimiter | undefined;

/**
 * The server's one limiter, shared by the API routes and the sign-in actions. Only the counts live
 * on globalThis: the production build bundles this module once per layer (route handlers, server
 * actions), and each copy must throw its own layer's DomainError.
 */
export function authFailureLimiter(): FailureLimiter {
  globalForLimiter.cuescopeAuthFailures ??= new Map();
  if (!limiter || (limiter as unknown as { buckets: Map<string, Bucket> }).buckets !== globalForLimiter.cuescopeAuthFailures) {
    limiter = new FailureLimiter(
      AUTH_FAILURE_BURST,
      AUTH_FAILURE_REFILL_SECONDS,
      Date.now,
      MAX_TRACKED,
      globalForLimiter.cuescopeAuthFailures,
    );
  }
  return limiter;
}

/**
 * Keys that passed recently (sha256 of the key as lib/server/auth/authorization.ts reads it, in
 * whatever form it was sent; bounded, least recently used forgotten first). While an address is over the limiter, a credential in this set is still
 * checked: a local agent with a good key keeps working while a neighbour on the same address (all
 * local agents share 127.0.0.1) sends wrong keys. A guesser gains nothing: a guess is never in the
 * set, so it stays refused unchecked.
 */
export class RecentlyAccepted {
  constructor(
    private readonly max = 1_000,
    private readonly ttlMs = 60 * 60 * 1000,
    private readonly now: () => number = Date.now,
    private readonly seen = new Map<string, number>(),
  ) {}

  has(digest: string): boolean {
    const at = this.seen.get(digest);
    if (at === undefined) return false;
    if (this.now() - at > this.ttlMs) {
      this.seen.delete(digest);
      return false;
    }
    return true;
  }

  add(digest: string): void {
    this.seen.delete(digest);
    this.seen.set(digest, this.now());
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
  }
}

const globalForAccepted = globalThis as unknown as { cuescopeAcceptedKeys?: Map<string, number> };
let accepted: RecentlyAccepted | undefined;

/** The server's one set of recently accepted credentials (the map on globalThis, as for the limiter). */
export function recentlyAcceptedKeys(): RecentlyAccepted {
  if (!globalForAccepted.cuescopeAcceptedKeys || !accepted) {
    globalForAccepted.cuescopeAcceptedKeys ??= new Map();
    accepted = new RecentlyAccepted(1_000, 60 * 60 * 1000, Date.now, globalForAccepted.cuescopeAcceptedKeys);
  }
  return accepted;
}
