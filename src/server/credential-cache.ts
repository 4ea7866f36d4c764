/**
 * Who a request's credential is, kept for a few seconds: the session a cookie names and the token
 * a bearer credential is, read once and reused by the requests that follow (docs/performance.md,
 * "The per-request cost"). Every API request reads its credential first; a polling client or a
 * busy screen repeats the same read many times a second.
 *
 * What is kept is dropped, on every server copy, when it may no longer be true:
 * - the database announces every change to operators, sessions and API tokens on the channel
 *   `pedal_credentials` (triggers of migration 0033: every path, the auth library's included);
 *   each copy listens, and drops everything it keeps on a notice (PostgreSQL delivers it at commit,
 *   within milliseconds; the test on two processes allows 1 s);
 * - a copy also drops everything at the end of each of its own requests that may change data (any
 *   method but GET, HEAD and OPTIONS), before the answer leaves, so that the client that signed out
 *   or revoked never meets its own change undone by a notice still on its way;
 * - a read that began before a drop is not kept (a generation number), so a read racing a change
 *   cannot put back what the change ended;
 * - while the copy is not listening (not yet connected, or its connection was lost), nothing is
 *   kept: every request reads the database, as without the cache; reconnecting drops everything.
 *
 * Entries live at most `ttlMs` (CREDENTIAL_CACHE_SECONDS, 5 s by default; 0 turns the cache off).
 * Times inside a kept session (its expiry, its refresh) are checked again on every use by the
 * caller, as on a fresh read.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type pino from "pino";
import type { Database } from "./db/client";

/** The channel the triggers of migration 0033 announce credential changes on. */
export const credentialsChannel = "pedal_credentials";

/** How long a lost listening connection waits before it connects again, in milliseconds. */
const reconnectDelayMs = 1_000;

/** At most this many entries per kind; beyond it the oldest entries make room. */
const maxEntries = 10_000;

type Entry<V> = { value: V; until: number };

/** One kind of credential kept (sessions by token, API tokens by hash). */
class Kept<V> {
  readonly entries = new Map<string, Entry<V>>();
  constructor(private readonly cache: CredentialCache) {}

  /**
   * The value kept for `key`, else `read()`'s, kept when the cache is live and nothing was dropped
   * while it was read. `read` answering undefined (no such credential) is not kept.
   */
  async get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = this.cache.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now && this.cache.live) return hit.value;
    const generation = this.cache.generation;
    const value = await read();
    if (value !== undefined && this.cache.live && generation === this.cache.generation) {
      if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, until: now + this.cache.ttlMs });
    }
    return value;
  }
}

/**
 * The credentials one server copy keeps (module doc). `start()` begins listening; `close()` stops.
 * A cache never started keeps nothing.
 */
export class CredentialCache {
  /** Cookie sessions by the session token; the value is what the session read answered. */
  readonly sessions = new Kept<unknown>(this);
  /** API tokens by their hash; the value is the token read's row. */
  readonly tokens = new Kept<unknown>(this);
  /** Bumped by every drop: a read that began under another generation is not kept. */
  generation = 0;
  /** Whether the copy is listening (and its embedded database open): only then is anything kept. */
  get live(): boolean {
    return this.listening && !this.embedded?.closed;
  }
  private listening = false;
  private embedded?: PGlite;
  private stop?: () => Promise<void>;
  private closed = false;

  /**
   * `ttlMs`: how long an entry lives (0 keeps nothing); `now`: milliseconds of a clock for it
   * (monotonic by default; tests move theirs).
   */
  constructor(
    private readonly db: Database,
    private readonly logger: pino.Logger,
    readonly ttlMs: number,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** Drops everything kept. */
  clear(): void {
    this.generation++;
    this.sessions.entries.clear();
    this.tokens.entries.clear();
  }

  /**
   * Begins listening for credential changes (a connection of its own on PostgreSQL, the embedded
   * database's own notices otherwise). Resolves once listening, or at once when the first attempt
   * fails (it tries again every second meanwhile, keeping nothing). A TTL of 0 starts nothing.
   */
  async start(): Promise<void> {
    if (this.ttlMs <= 0 || this.closed) return;
    const client = (this.db as unknown as { $client: unknown }).$client;
    if (client instanceof PGlite) {
      const unlisten = await client.listen(credentialsChannel, () => this.clear());
      this.stop = unlisten;
      this.embedded = client;
      this.listening = true;
      return;
    }
    if (client instanceof pg.Pool) await this.listenOn(client);
  }

  private async listenOn(pool: pg.Pool): Promise<void> {
    if (this.closed) return;
    const listener = new pg.Client(pool.options);
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      const wasLive = this.listening;
      this.listening = false;
      this.clear();
      if (this.closed) return;
      // Said once per loss, not at every attempt to connect again.
      if (wasLive)
        this.logger.warn({ err }, "credential changes are not heard: sessions and tokens are read on every request");
      listener.end().catch(() => undefined);
      setTimeout(() => void this.listenOn(pool), reconnectDelayMs).unref();
    };
    listener.on("error", onLost);
    listener.on("end", () => onLost());
    listener.on("notification", () => this.clear());
    try {
      await listener.connect();
      await listener.query(`listen ${credentialsChannel}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    // Whatever was read before listening may have changed unheard.
    this.clear();
    if (!this.closed && this.stop) this.logger.info("credential changes are heard again");
    this.listening = !this.closed;
    this.stop = async () => {
      lost = true;
      await listener.end().catch(() => undefined);
    };
  }

  /** Stops listening and keeps nothing from then on. */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.clear();
    await this.stop?.();
  }
}
