/**
 * Snapshots: a memory of values that cost too much to compute on every request (the analytics
 * figures at a million users, README "Analytics"), served stale-while-revalidate.
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
 */
export type Snapshot<V> = { value: V; at: Date };

export type Snapshots<V> = {
  /** The snapshot of `key` (see the module comment); `at` is when its computation started. */
  get(key: string, compute: () => Promise<V>): Promise<Snapshot<V>>;
  /** Computes `key` now, whatever its age, and keeps it (start-up warming; tests). */
  refresh(key: string, compute: () => Promise<V>): Promise<Snapshot<V>>;
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
};

export function createSnapshots<V>(options: SnapshotOptions): Snapshots<V> {
  const clock = options.clock ?? (() => new Date());
  const kept = new Map<string, Snapshot<V>>();
  const running = new Map<string, Promise<Snapshot<V>>>();

  function refresh(key: string, compute: () => Promise<V>): Promise<Snapshot<V>> {
    const current = running.get(key);
    if (current) return current;
    const at = clock();
    const run = compute()
      .then((value) => {
        const snapshot = { value, at };
        const previous = kept.get(key);
        // A slower, older computation never replaces a newer snapshot.
        if (!previous || previous.at <= at) kept.set(key, snapshot);
        return kept.get(key)!;
      })
      .finally(() => running.delete(key));
    running.set(key, run);
    return run;
  }

  return {
    refresh,
    async get(key, compute) {
      const snapshot = kept.get(key);
      const age = snapshot ? clock().getTime() - snapshot.at.getTime() : Infinity;
      if (snapshot && age < options.maxAgeMs) return snapshot;
      if (snapshot && age < options.maxStaleMs) {
        // One report per failed refresh, however many requests found the snapshot stale meanwhile.
        if (!running.has(key)) refresh(key, compute).catch((err) => options.onError?.(err, key));
        return snapshot;
      }
      return refresh(key, compute);
    },
    async settled() {
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}
