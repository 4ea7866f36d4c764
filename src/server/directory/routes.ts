/**
 * The console's side of directory sync (docs/onboarding.md): a customer's directory state and its
 * SCIM tokens. Creating and revoking a token changes credentials, so both are session-only and
 * ask an admin to confirm it is them (route.ts `credentialPaths`), like operators' API tokens.
 */
import { directoryMsg } from "../../domain/directory-messages";
import { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import { okSchema } from "../../domain/common";
import {
  createDirectoryTokenSchema,
  createdDirectoryTokenSchema,
  directoryStateSchema,
  type DirectoryState,
} from "../../domain/directory";
import { msg } from "../../domain/messages";
import { mutate } from "../audit";
import { queryRows, type Database } from "../db/client";
import { customers, directory_tokens } from "../db/schema";
import { notFound } from "../http/errors";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { newDirectoryToken } from "./tokens";

export const directoryBase = "/api/customers";
/** Where a customer's identity provider sends SCIM requests: `{PUBLIC_URL}/scim/v2`. */
export const scimBase = "/scim/v2";

const customerParams = z.object({ customerId: z.guid(msg.customers.notFound) });
const tokenParams = customerParams.extend({ directoryTokenId: z.guid(directoryMsg.tokenNotFound) });

/**
 * GET /api/customers/{customerId}/directory → the customer's directory sync: on or off, the SCIM
 * base URL, its tokens, its last request, today's (UTC) created/updated/deactivated counts, how
 * many users and teams it manages, and its last 10 refusals with their requests. 404 unknown customer.
 */
const state = apiRoute(directoryBase, "viewer", {
  method: "get",
  path: "/{customerId}/directory",
  tags: ["Directory sync"],
  summary: "A customer's directory sync",
  request: { params: customerParams },
  responses: {
    200: jsonResponse(directoryStateSchema, "The directory's state"),
    ...notFoundResponse(msg.customers.notFound),
  },
});

/**
 * POST /api/customers/{customerId}/directory-tokens `{ name }` → 201 the token with, this once,
 * `token` itself and `base_url` (admin, signed-in session only: 403 with an API token). A second
 * live token is how a rotation goes without downtime: give the identity provider the new one,
 * then revoke the old. Audited `directory_token_created` (name and prefix). 404 unknown customer.
 */
const create = apiRoute(directoryBase, "admin", {
  method: "post",
  path: "/{customerId}/directory-tokens",
  tags: ["Directory sync"],
  summary: "Create a directory (SCIM) token",
  request: { params: customerParams, body: jsonBody(createDirectoryTokenSchema) },
  responses: {
    201: jsonResponse(createdDirectoryTokenSchema, "Created: the token is in `token`, shown only this once"),
    ...notFoundResponse(msg.customers.notFound),
    ...invalidResponse,
  },
});

/**
 * DELETE /api/customers/{customerId}/directory-tokens/{directoryTokenId} → `{ ok }` (admin, session only):
 * the token is refused from now on (kept, marked revoked). 404 unknown or already revoked.
 */
const revoke = apiRoute(directoryBase, "admin", {
  method: "delete",
  path: "/{customerId}/directory-tokens/{directoryTokenId}",
  tags: ["Directory sync"],
  summary: "Revoke a directory (SCIM) token",
  request: { params: tokenParams },
  responses: { 200: jsonResponse(okSchema, "Revoked"), ...notFoundResponse(directoryMsg.tokenNotFound) },
});

const tokenColumns = sql`t.directory_token_id, t.customer_id, t.name, t.prefix, t.created_by_email,
  t.created_at, t.last_used_at, t.revoked_at`;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
type TokenRow = Record<string, unknown> & { created_at: unknown; last_used_at: unknown; revoked_at: unknown };
const tokenJson = (r: TokenRow) => ({
  ...r,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
});

/** The directory state of `customerId`, or null when there is no such customer (four indexed reads). */
async function directoryState(db: Database, customerId: string, baseUrl: string): Promise<DirectoryState | null> {
  const [customer] = await db
    .select({ id: customers.customer_id })
    .from(customers)
    .where(eq(customers.customer_id, customerId));
  if (!customer) return null;
  const tokens = await queryRows<TokenRow>(
    db,
    sql`select ${tokenColumns} from directory_tokens t where t.customer_id = ${customerId}
      order by t.revoked_at is not null, t.created_at desc, t.directory_token_id`,
  );
  const [figures] = await queryRows<{
    last_request_at: string | null;
    created: number;
    updated: number;
    deactivated: number;
    users: number;
    teams: number;
  }>(
    db,
    sql`select
      (select max(created_at) from directory_requests where customer_id = ${customerId}) as last_request_at,
      count(*) filter (where outcome = 'created')::int as created,
      count(*) filter (where outcome = 'updated')::int as updated,
      count(*) filter (where outcome = 'deactivated')::int as deactivated,
      (select count(*) from directory_users where customer_id = ${customerId})::int as users,
      (select count(*) from directory_groups where customer_id = ${customerId})::int as teams
      from directory_requests
      where customer_id = ${customerId} and created_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`,
  );
  const errors = await queryRows<{
    method: string;
    path: string;
    status: number;
    error: string | null;
    created_at: string;
  }>(
    db,
    sql`select method, path, status, error, created_at from directory_requests
      where customer_id = ${customerId} and status >= 400 order by created_at desc limit 10`,
  );
  return {
    enabled: tokens.some((t) => t.revoked_at === null),
    base_url: baseUrl,
    tokens: tokens.map(tokenJson) as DirectoryState["tokens"],
    last_request_at: iso(figures.last_request_at),
    today: { created: figures.created, updated: figures.updated, deactivated: figures.deactivated },
    managed: { users: figures.users, teams: figures.teams },
    errors: errors.map((e) => ({ ...e, created_at: iso(e.created_at)! })),
  };
}

export const directoryRouter = createRouter()
  .openapi(state, async (c) => {
    const answer = await directoryState(c.get("db"), c.req.valid("param").customerId, c.get("publicUrl") + scimBase);
    if (!answer) throw notFound(msg.customers.notFound);
    return c.json(answer, 200);
  })
  .openapi(create, async (c) => {
    const { customerId } = c.req.valid("param");
    const { name } = c.req.valid("json");
    const { token, prefix, hash } = newDirectoryToken();
    const row = await mutate(c, async (tx) => {
      const [customer] = await tx
        .select({ id: customers.customer_id })
        .from(customers)
        .where(eq(customers.customer_id, customerId))
        .for("share");
      if (!customer) throw notFound(msg.customers.notFound);
      const [inserted] = await tx
        .insert(directory_tokens)
        .values({
          customer_id: customerId,
          name,
          prefix,
          token_hash: hash,
          created_by_email: c.get("session")!.user.email,
          created_at: c.get("clock")(),
        })
        .returning();
      return {
        result: inserted,
        audit: [
          {
            action: "directory_token_created" as const,
            entity: "directory_token" as const,
            entity_id: inserted.directory_token_id,
            after: { customer_id: customerId, name, prefix },
          },
        ],
      };
    });
    const { token_hash: _hash, ...shown } = row;
    return c.json({ ...tokenJson(shown as TokenRow), token, base_url: c.get("publicUrl") + scimBase } as never, 201);
  })
  .openapi(revoke, async (c) => {
    const { customerId, directoryTokenId } = c.req.valid("param");
    await mutate(c, async (tx) => {
      const [gone] = await tx
        .update(directory_tokens)
        .set({ revoked_at: c.get("clock")() })
        .where(
          and(
            eq(directory_tokens.directory_token_id, directoryTokenId),
            eq(directory_tokens.customer_id, customerId),
            isNull(directory_tokens.revoked_at),
          ),
        )
        .returning({ name: directory_tokens.name, prefix: directory_tokens.prefix });
      if (!gone) throw notFound(directoryMsg.tokenNotFound);
      return {
        result: null,
        audit: [
          {
            action: "directory_token_revoked" as const,
            entity: "directory_token" as const,
            entity_id: directoryTokenId,
            before: { customer_id: customerId, ...gone },
          },
        ],
      };
    });
    return c.json({ ok: true as const }, 200);
  });
