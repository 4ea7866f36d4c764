import { onlineManager, queryOptions, type QueryClient } from "@tanstack/react-query";

/**
 * The operator's session as the server's sign-in (better-auth, /api/auth) tells it, held by TanStack
 * Query: one query, GET /api/auth/get-session, asked again when the tab shows (at most every 5 s, as
 * better-auth's client did), when the browser comes back online, when another tab signs out and after
 * a sign-in or sign-out. A 401 is "signed out" (data null); any other failure is the query's error,
 * with the last session kept (the gate then says the server cannot be reached).
 *
 * Signing in and out goes through better-auth's own client, loaded with the action
 * (./better-auth-client): its 10 KiB gzipped stay out of the initial JavaScript every visit pays for.
 */

/** What GET /api/auth/get-session answers when signed in (the fields the console reads). */
export type SessionData = { session: Record<string, unknown>; user: Record<string, unknown> };

/** A failed answer (its status and the message of its JSON body), or a network failure (no status). */
export type SessionError = Error & { status?: number; statusText?: string };

export const sessionKey = ["session"] as const;

/** The session query: `useQuery(sessionQuery)` in AuthProvider, prefetched by main.tsx. */
export const sessionQuery = queryOptions({
  queryKey: sessionKey,
  queryFn: async ({ signal }): Promise<SessionData | null> => {
    const res = await fetch("/api/auth/get-session", { credentials: "include", signal });
    if (res.status === 401) return null;
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      // Not JSON (a proxy's error page): no body.
    }
    if (!res.ok) {
      const message = (body as { message?: unknown } | null)?.message;
      const error: SessionError = new Error(typeof message === "string" ? message : `${res.status} ${res.statusText}`);
      error.status = res.status;
      error.statusText = res.statusText;
      throw error;
    }
    const found = body as Partial<SessionData> | null;
    return found?.session && found.user ? (found as SessionData) : null;
  },
  // better-auth's client asked again on focus at most every 5 s.
  staleTime: 5_000,
  refetchOnWindowFocus: true,
  refetchOnReconnect: true,
  // A failure shows at once ("cannot reach the server", with Retry), and is reported even when the
  // browser thinks it is offline (the query is not paused until it is back).
  retry: false,
  networkMode: "always",
});

/** Asks for the session again (a request still under way is abandoned); resolves once it is known. */
export const refetchSession = (queryClient: QueryClient) => queryClient.refetchQueries({ queryKey: sessionKey });

/**
 * After a sign-in or sign-out: every cached answer of the previous operator is dropped, and the
 * session asked for again. The session's query stays (AuthProvider observes it) and is refetched.
 */
export async function resetForNewSession(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
  queryClient.getMutationCache().clear();
  await refetchSession(queryClient);
}

/** Where better-auth's client tells the other tabs of a sign-out (localStorage, its channel's name). */
const broadcastKey = "better-auth.message";

/**
 * Another tab signed out (better-auth's broadcast, written by ./better-auth-client): this tab asks
 * for its session again. Returns the listener's removal.
 */
export function refetchOnSignOutElsewhere(queryClient: QueryClient): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== broadcastKey || !event.newValue || !onlineManager.isOnline()) return;
    try {
      const message = JSON.parse(event.newValue) as { event?: string; data?: unknown } | null;
      if (message?.event === "session" && message.data) void refetchSession(queryClient);
    } catch {
      // Not a message of better-auth's.
    }
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

/**
 * Starts asking for the session as the app's code runs, not when React first renders the gate: a
 * first visit would otherwise queue the request behind the screen's code being fetched (the browser
 * opens at most six connections to the server). The gate's query picks up the same request.
 */
export function prefetchSession(queryClient: QueryClient) {
  void queryClient.prefetchQuery(sessionQuery);
}
