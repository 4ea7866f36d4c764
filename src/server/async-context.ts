/**
 * AsyncLocalStorage switched off while nothing uses it.
 *
 * On Node 20 an AsyncLocalStorage's first `run()` turns on V8's promise hooks for the whole
 * process, and they stay on until every store is disabled: from then on every `await` of every
 * request costs about 2.5 times as much (a loop of awaits on this machine: 195,000 against 76,000
 * requests of 40 awaits a second). better-auth runs each of its endpoints inside stores of its own,
 * so the first sign-in slowed every request after it, the many that never touch better-auth
 * included (docs/performance.md "The per-request cost"). Node 22's AsyncContextFrame removes the
 * cost; until the console runs on it, the stores are disabled whenever no call that uses them is
 * under way, and their next `run()` enables them again.
 *
 * Every such call goes through `withAsyncContext`: better-auth's handler and API through
 * `quietAuth` (auth.ts), the console's own stores (saved views' asker, single sign-on's attempt)
 * where they run. A call outside it that used a store would lose the store when another call
 * ends; none exists (every use of better-auth goes through the wrapped instance).
 */
import { AsyncLocalStorage } from "node:async_hooks";

const ownStores = new Set<AsyncLocalStorage<unknown>>();
let inFlight = 0;
let scheduled = false;

/** A store of the console's own, disabled with better-auth's when no call is under way. */
export function quietStore<T>(): AsyncLocalStorage<T> {
  const store = new AsyncLocalStorage<T>();
  ownStores.add(store);
  return store;
}

/** better-auth's stores, found where it keeps them (`Symbol.for("better-auth:global")`). */
function betterAuthStores(): AsyncLocalStorage<unknown>[] {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[
    Symbol.for("better-auth:global")
  ];
  return Object.values(global?.context ?? {}).filter(
    (v): v is AsyncLocalStorage<unknown> => v instanceof AsyncLocalStorage,
  );
}

function disableIdle() {
  scheduled = false;
  if (inFlight > 0) return;
  for (const store of [...ownStores, ...betterAuthStores()]) store.disable();
}

/**
 * Runs `fn`, which may use an AsyncLocalStorage; once no such call is under way (checked on the
 * next turn of the event loop, after what `fn` left queued), every store is disabled.
 */
export async function withAsyncContext<T>(fn: () => Promise<T> | T): Promise<T> {
  inFlight++;
  try {
    return await fn();
  } finally {
    inFlight--;
    if (inFlight === 0 && !scheduled) {
      scheduled = true;
      setImmediate(disableIdle);
    }
  }
}

/**
 * `auth` with its `handler` and every `api` function run through `withAsyncContext`; everything
 * else (`$context`, `options`) as it is.
 */
export function quietAuth<A extends { handler: (req: Request) => Promise<Response>; api: object }>(auth: A): A {
  const api = new Proxy(auth.api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        withAsyncContext(() => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  const handler = (req: Request) => withAsyncContext(() => auth.handler(req));
  return new Proxy(auth, {
    get(target, key, receiver) {
      if (key === "handler") return handler;
      if (key === "api") return api;
      return Reflect.get(target, key, receiver);
    },
  });
}
