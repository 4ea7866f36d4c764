import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

/**
 * The headers a browser reads to protect a page: what it may load (a Content-Security-Policy with
 * no inline script or style), who may frame it, open it or embed it, and what it tells other sites.
 * Sent with the single-page app, its assets and the API's documentation viewer.
 */
export const documentHeaders: ReadonlyArray<readonly [string, string]> = [
  [
    "content-security-policy",
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
      "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  ],
  ["cross-origin-opener-policy", "same-origin"],
  ["cross-origin-resource-policy", "same-origin"],
  ["origin-agent-cluster", "?1"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
  ["x-content-type-options", "nosniff"],
  ["x-dns-prefetch-control", "off"],
  ["x-download-options", "noopen"],
  ["x-frame-options", "DENY"],
  ["x-permitted-cross-domain-policies", "none"],
  ["x-xss-protection", "0"],
];

/**
 * The headers of an API answer (JSON, a CSV export, a 304), as OWASP's REST Security Cheat Sheet
 * gives them: never sniffed into a document, never framed, never read by another site's page
 * (CORP), and, should a browser open one as a page anyway, allowed to load nothing. The headers
 * that only a document reads (its opener, its agent cluster, the XSS auditor's) are left out: an
 * API answer costs about half the bytes and the work (docs/performance.md "Side by side").
 */
export const apiHeaders: ReadonlyArray<readonly [string, string]> = [
  ["content-security-policy", "default-src 'none'; frame-ancestors 'none'"],
  ["cross-origin-resource-policy", "same-origin"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
  ["x-content-type-options", "nosniff"],
  ["x-frame-options", "DENY"],
];

/** HSTS, sent only where the console is served over https: a browser keeps it from https only. */
const hsts: [string, string] = ["strict-transport-security", "max-age=15552000; includeSubDomains"];

/**
 * Whether the answer to `path` carries the API's headers (`apiHeaders`) rather than the
 * document's: /api and /scim answers, the documentation viewer's (/api/docs) excepted. Chosen by
 * path, not by content type: a 304 of a cached page carries no type, and a browser updates the
 * page's stored headers from it.
 */
export const isApiAnswer = (path: string): boolean =>
  (path.startsWith("/api/") && !path.startsWith("/api/docs")) || path.startsWith("/scim/");

/** A request id a client may give (X-Request-Id): up to 255 word characters, `-` and `=`. */
const clientRequestId = /^[\w\-=]{1,255}$/;

/**
 * Every answer's request id and security headers, set once its handler is done (whatever made the
 * answer: a route, the error handler, better-auth, the static files).
 *
 * - `X-Request-Id`: the client's own (when it is a plain token of at most 255 characters), else a
 *   new UUID; also `c.get("requestId")`, which the request's log line and the audit carry.
 * - The API's headers (`apiHeaders`) where `isApiAnswer(path)`, the document's (`documentHeaders`)
 *   on every other answer.
 * - `Strict-Transport-Security` when `https` (PUBLIC_URL starts with https://).
 *
 * They replace any the handler set, as hono's `secureHeaders` did; set one after another on the
 * answer, with no other header read or copied.
 */
export function answerHeaders({ https }: { https: boolean }): MiddlewareHandler<AppEnv> {
  const api = https ? [...apiHeaders, hsts] : apiHeaders;
  const document = https ? [...documentHeaders, hsts] : documentHeaders;
  return async (c, next) => {
    const given = c.req.header("x-request-id");
    const requestId = given && clientRequestId.test(given) ? given : crypto.randomUUID();
    c.set("requestId", requestId);
    await next();
    const set = isApiAnswer(c.req.path) ? api : document;
    const headers = c.res.headers;
    for (const [name, value] of set) headers.set(name, value);
    headers.set("x-request-id", requestId);
  };
}
