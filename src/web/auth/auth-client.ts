import { createAuthClient } from "better-auth/react";

/** better-auth's browser client, talking to /api/auth on this origin. */
export const authClient = createAuthClient({ basePath: "/api/auth" });
