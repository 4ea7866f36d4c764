import { signInOptionsSchema } from "../../domain/sso";
import type { IdentityConfig } from "../config";
import { apiRoute, createRouter, jsonResponse } from "../http/route";
import { signInOptions } from "./sso";

const base = "/api/auth";

/**
 * GET /api/auth/providers → 200 `{ password, sso: { id, label } | null }`: what the login screen
 * offers. `password` is false under SSO_ONLY (break-glass operators can still use the form, so the
 * screen keeps it, quieter); `sso` is null when single sign-on is not configured. Public: read
 * before anyone signs in. docs/identity.md "Single sign-on".
 */
const getProviders = apiRoute(base, "public", {
  method: "get",
  path: "/providers",
  summary: "Sign-in methods the login screen offers",
  tags: ["Auth"],
  responses: { 200: jsonResponse(signInOptionsSchema, "Sign-in methods") },
});

/** The sign-in options route, answering from this app's configuration. */
export function identityRouter(identity: IdentityConfig | undefined) {
  const options = signInOptions(identity);
  return createRouter().openapi(getProviders, (c) => c.json(options, 200));
}
export const identityBase = base;
