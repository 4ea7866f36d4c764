import { createAuthClient, getGlobalBroadcastChannel } from "better-auth/client";

/**
 * better-auth's browser client, talking to /api/auth on this origin: the password sign-in and the
 * sign-out. Loaded with those actions (a dynamic import in AuthProvider), never with the app:
 * the session itself is a TanStack Query query (./auth-client), so its 10 KiB gzipped stay out of
 * the initial JavaScript.
 */
export const authClient = createAuthClient({ basePath: "/api/auth" });

/**
 * Tells the other tabs that this browser signed out, through better-auth's channel (localStorage
 * "better-auth.message"; ./auth-client's listener makes them ask for their session again). The
 * client posts it itself only while its own session store is in use, which the console's is not.
 */
export function broadcastSignOut() {
  getGlobalBroadcastChannel().post({
    event: "session",
    data: { trigger: "signout" },
    clientId: Math.random().toString(36).substring(7),
  });
}
