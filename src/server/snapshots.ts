/**
 * Snapshots: a memory of values that cost too much to compute on every request (the analytics
 * figures at a million users, docs/decisions.md "Analytics"), served stale-while-revalidate.
 *
 * `get(key, compute)`:
 * - a snapshot younger than `maxAgeMs` is answered as it is;
 * - one older, but younger than `maxStaleMs`, is answered as it is while one refresh runs in the
 *   background (the next request gets the new one);
 * - without a snapshot, or with one older than `maxStaleMs`, the value is computed for this
 *   request.
 * Requests for the same key share one computation; a failed background refresh keeps the old
 * snapshot (and is reported to `onError`), a failed computation for a request rejects that request.
 * Each process keeps its own snapshots: several consoles on one database each refresh theirs.
 *
 * A caller that computes a value within its own request, and decides then whether it is worth
 * keeping (the list engine's summary cards: docs/lists.md), uses `peek` and `put` instead of
 * `get`; `maxEntries` bounds such a memory.
 */
export type Snapshot<V> = { value: V; at: Date };

export type Snapshots<V> = {
  /** The snapshot of `key` (see the module comment); `at` is when its computation started. */
  get(key: string, compute: () => Promise<V>): Promise<Snapshot<V>>;
  /** Computes `key` now, whatever its age, and keeps it (start-up warming; tests). */
  refresh(key: string, compute: () => Promise<V>): Promise<Snapshot<V>>;
  /**
   * The snapshot of `key` when younger than `maxStaleMs`, without computing it; when older than
   * `maxAgeMs`, one background refresh runs with `compute`. A refresh that resolves to undefined
   * drops the snapshot (nothing worth keeping any more).
   */
  peek(key: string, compute: () => Promise<V | undefined>): Snapshot<V> | undefined;
  /** Keeps `value`, computed by the caller from `at` (default now), as the snapshot of `key`. */
  put(key: string, value: V, at?: Date): void;
  /**
   * Starts one computation of `key` in the background unless one runs (a request that answers
   * without the value, and lets the next request have it); undefined keeps no snapshot, a failure
   * goes to `onError`. `at`: what the value will be as of (default now; a computation the caller
   * began earlier, or a value partly read from an older snapshot).
   */
  start(key: string, compute: () => Promise<V | undefined>, at?: Date): void;
  /** Whether a computation of `key` runs (a caller answers without it rather than start a second one). */
  running(key: string): boolean;
  /**
   * Whether the last computation of `key` failed less than `maxAgeMs` ago (none has succeeded, nor
   * been `put`, since): a caller that would start one in the background computes for its request
   * instead, so that a fault is answered rather than retried on every request.
   */
  failed(key: string): boolean;
  /** Resolves once no computation is running (tests wait for a background refresh with it). */
  settled(): Promise<void>;
};

export type SnapshotOptions = {
  /** Age in ms under which a snapshot is answered without a refresh. */
  maxAgeMs: number;
  /** Age in ms over which a snapshot is no longer answered: the request waits for a new one. */
  maxStaleMs: number;
  /** The time (tests move it); default the system's. */
  clock?: () => Date;
  /** Called with a background refresh's error; the old snapshot stays. */
  onError?: (err: unknown, key: string) => void;
  /** The most snapshots kept; the least recently stored go first. Default unbounded. */
  maxEntries?: number;
};

export function createSnapshots<V>(options: SnapshotOptions): Snapshots<V> {
  const clock = options.clock ?? (() => new Date());
  const kept = new Map<string, Snapshot<V>>();
  const running = new Map<string, Promise<Snapshot<V> | undefined>>();
  /** When each key's last computation failed; as bounded as `kept`. */
  const failures = new Map<string, Date>();

  function keep(key: string, snapshot: Snapshot<V>) {
    kept.delete(key);
    kept.set(key, snapshot);
    if (options.maxEntries !== undefined && kept.size > options.maxEntries) kept.delete(kept.keys().next().value!);
  }

  /** One computation of `key` at a time; a value of undefined drops the snapshot. */
  function run(key: string, compute: () => Promise<V | undefined>, at = clock()): Promise<Snapshot<V> | undefined> {
    const current = running.get(key);
    if (current) return current;
    const computing = compute()
      .then(
        (value) => {
          failures.delete(key);
          const previous = kept.get(key);
          // A slower, older computation never replaces a newer snapshot.
          if (previous && previous.at > at) return previous;
          if (value === undefined) kept.delete(key);
          else keep(key, { value, at });
          return kept.get(key);
        },
        (err: unknown) => {
          failures.delete(key);
          failures.set(key, clock());
          if (options.maxEntries !== undefined && failures.size > options.maxEntries)
            failures.delete(failures.keys().next().value!);
          throw err;
        },
      )
      .finally(() => running.delete(key));
    running.set(key, computing);
    return computing;
  }
  // A compute that never resolves to undefined always leaves a snapshot.
  const refresh = (key: string, compute: () => Promise<V>) => run(key, compute) as Promise<Snapshot<V>>;

  /** Starts one background refresh of `key` unless one runs; its failure goes to `onError` once. */
  function revalidate(key: string, compute: () => Promise<V | undefined>, at?: Date) {
    if (!running.has(key)) run(key, compute, at).catch((err) => options.onError?.(err, key));
  }

  function peek(key: string, compute: () => Promise<V | undefined>): Snapshot<V> | undefined {
    const snapshot = kept.get(key);
    if (!snapshot) return undefined;
    const age = clock().getTime() - snapshot.at.getTime();
    if (age >= options.maxStaleMs) return undefined;
    if (age >= options.maxAgeMs) revalidate(key, compute);
    return snapshot;
  }

  return {
    refresh,
    peek,
    async get(key, compute) {
      return peek(key, compute) ?? refresh(key, compute);
    },
    put(key, value, at = clock()) {
      failures.delete(key);
      keep(key, { value, at });
    },
    start: revalidate,
    running: (key) => running.has(key),
    failed(key) {
      const at = failures.get(key);
      return at !== undefined && clock().getTime() - at.getTime() < options.maxAgeMs;
    },
    async settled() {
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}
