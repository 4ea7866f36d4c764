import { createAuthClient } from "better-auth/react";

/** better-auth's browser client, talking to /api/auth on this origin. */
export const authClient = createAuthClient({ basePath: "/api/auth" });

// The session is asked for as soon as this module runs, not when React first renders the gate:
// a first visit would otherwise queue the request behind the screen's code being fetched (the
// browser opens at most six connections to the server). The gate's useSession reads the same store.
// Not in the component tests (Vitest's "test" mode), which import screen parts with no server behind.
if (import.meta.env.MODE !== "test") authClient.$store.atoms.session?.listen(() => undefined);
