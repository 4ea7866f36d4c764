import { defineFeature } from "../lib/routes";

/**
 * /account/tokens: the signed-in operator's personal API tokens (from the user menu);
 * /api-tokens: every operator's tokens (admins, linked from the Operators screen).
 */
export const feature = defineFeature({
  routes: ({ page }) => [
    page("/account/tokens", () => import("./ApiTokensPage")),
    page("/api-tokens", () => import("./AllApiTokensPage")),
  ],
});

// prettier-ignore
declare module "../lib/routes" { interface Features { tokens: typeof feature } }
