import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";

/** Machine-readable error codes of the API's `{ error: { code, message, fields? } }` body. */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "stale"
  | "domain_claimed"
  | "domain_mismatch"
  | "validation_failed"
  | "rate_limited"
  | "invalid_code"
  | "mfa_setup_required"
  | "self_review"
  | "not_author"
  | "already_decided"
  | "superseded"
  | "already_proposed"
  | "review_required"
  | "reauthentication_required"
  | "undeclared_variable"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unavailable"
  | "internal";

/** The error itself: its code, its message, and the message of each field at fault. */
const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});

/** The one error body of every API answer that is not 2xx. */
export const errorBodySchema = z.object({ error: errorSchema }).openapi("Error");

/**
 * The body of a 409 that asks the client to decide (docs/editing.md): `stale` carries the record as
 * it is now (`current`) and who changed which fields since it was read (`changes`);
 * `domain_claimed` the domains other customers already list; `domain_mismatch` the customer's domains.
 */
export const conflictBodySchema = z
  .object({
    error: errorSchema.extend({
      current: z.record(z.string(), z.unknown()).optional(),
      changes: z
        .array(z.object({ operator_email: z.string().nullable(), at: z.string(), fields: z.array(z.string()) }))
        .optional(),
      domains: z.array(z.object({ domain: z.string(), customer_id: z.string(), customer_name: z.string() })).optional(),
      customer_domains: z.array(z.string()).optional(),
    }),
  })
  .openapi("Conflict");

/** An error a handler throws to answer with `status` and the standard error body (plus `extra`, a 409's details). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new HttpError(404, "not_found", message);
export const conflict = (message: string) => new HttpError(409, "conflict", message);

/** Writes the standard error body. */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  fields?: Record<string, string>,
  extra?: Record<string, unknown>,
) {
  return c.json({ error: { code, message, ...(fields ? { fields } : {}), ...extra } }, status);
}

/** Turns a zod error into field messages: the first message per field path ("" for the body itself). */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".");
    fields[key] ??= issue.message;
  }
  return fields;
}

/** A unique constraint the API names in its 409 answer: the message and the field it is about. */
const uniqueConstraints = new Map<string, { message: string; field?: string }>([
  ["operator_email_unique", { message: msg.operators.emailTaken, field: "email" }],
]);

/**
 * Names what a unique constraint or index means when a write breaks it: the 409's message and the
 * field it shows under. An entity's records register theirs from the table's own unique indexes
 * (`recordsOf`'s `unique`), so a constraint is declared once, in the schema.
 */
export function registerUniqueConstraint(constraint: string, answer: { message: string; field?: string }) {
  uniqueConstraints.set(constraint, answer);
}

/** The PostgreSQL error behind `err` (drivers and Drizzle wrap it in `cause`), or undefined. */
export function databaseError(err: unknown): { code: string; constraint?: string } | undefined {
  for (
    let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code))
      return { code: e.code, constraint: typeof e.constraint === "string" ? e.constraint : undefined };
  }
  return undefined;
}

/** Socket errors of a connection to the database server that ended or could not be opened. */
const connectionErrnos = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
]);
/** What the `pg` driver and its pool say of a connection that ended or could not be had (PGlite: once closed). */
const connectionMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|PGlite is closed)/;

/**
 * Whether `err` (or an error it wraps) says the database cannot be reached now, rather than that
 * the request was wrong: a connection the server ended or refused (SQLSTATE class 08, 57P01–57P03
 * shutdown, 53300 too many connections, any FATAL error, which always ends its connection, as
 * "database is not currently accepting connections" does), a socket error, or the driver's own
 * words for a lost or unobtainable connection. Such a request is answered 503 `unavailable`.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; severity?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300")
      return true;
    if (e.severity === "FATAL" || e.severity === "PANIC") return true;
    if (connectionErrnos.has(code)) return true;
    if (typeof e.message === "string" && connectionMessages.test(e.message)) return true;
  }
  return false;
}

/**
 * The one place where database errors become answers other than 500: a database that cannot be
 * reached now is 503 `unavailable` (isDatabaseUnavailable); errors caused by the request are 4xx:
 * - 22P02 / 22021 / 22P05 (text the database cannot read or store): 400 `bad_request`;
 * - any other data exception, class 22 (a date out of range, a number too big...): 422 `validation_failed`;
 * - 23505 (unique violation, e.g. two requests creating one email at once): 409 `conflict`, with the
 *   entity's message and field for a constraint registered with `registerUniqueConstraint`;
 * - 57014 (a statement cancelled by its statement_timeout): 503 `unavailable`, "took too long";
 * - PR001 (prompt review's gate, migration 0027: the write would change what a platform is served
 *   without an approval): 409 `review_required`.
 * @returns null for any other error (a bug of ours: 500).
 */
export function databaseErrorAnswer(err: unknown): HttpError | null {
  if (isDatabaseUnavailable(err)) return new HttpError(503, "unavailable", msg.api.unavailable);
  const pg = databaseError(err);
  if (!pg) return null;
  if (pg.code === "22P02" || pg.code === "22021" || pg.code === "22P05")
    return new HttpError(400, "bad_request", msg.api.malformed);
  if (pg.code.startsWith("22")) return new HttpError(422, "validation_failed", msg.api.outOfRange);
  // statement_timeout: a statement the console bounds (a bulk preview) ran out of time.
  if (pg.code === "57014") return new HttpError(503, "unavailable", msg.api.tooSlow);
  if (pg.code === "PR001") return new HttpError(409, "review_required", msg.reviews.reviewRequired);
  if (pg.code === "23505") {
    const known = pg.constraint ? uniqueConstraints.get(pg.constraint) : undefined;
    if (known)
      return new HttpError(409, "conflict", known.message, known.field ? { [known.field]: known.message } : undefined);
    return new HttpError(409, "conflict", msg.api.duplicate);
  }
  return null;
}
