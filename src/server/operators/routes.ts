import { z } from "@hono/zod-openapi";
import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import {
  createOperatorSchema,
  operatorSchema,
  resetPasswordSchema,
  revokedSchema,
  updateOperatorSchema,
  type OperatorRow,
} from "../../domain/operators";
import { mutate } from "../audit";
import { queryRows, type Database } from "../db/client";
import { auth_throttle, operator, operator_account, operator_totp_used, operator_two_factor } from "../db/schema";
import { conflict, errorBodySchema, HttpError } from "../http/errors";
import { requireFound } from "../http/found";
import { toJson } from "../http/list";
import { defineList } from "../http/lists";
import { mountList } from "../http/list-routes";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { accountKey, revokeSessions } from "../security";
import { revokeOperatorTokens, lowerOperatorTokens } from "../tokens";
import type { OperatorRole } from "../../domain/enums";
import { noSummary, okSchema } from "../../domain/common";

export const operatorsBase = "/api/operators";
export const accountBase = "/api/account";
const params = z.object({ operatorId: z.string().min(1).max(100) });
const notFound404 = notFoundResponse(msg.operators.notFound);

const operatorColumns = sql`o.id, o.name, o.email, o.role, coalesce(o.banned, false) as banned, o.created_at,
  (select t.locked_until from auth_throttle t where t.key = 'account:' || o.email and t.locked_until > now()) as locked_until,
  (select count(*) from operator_session s where s.user_id = o.id and s.expires_at > now())::int as active_sessions,
  (select max(a.created_at) from audit_log a where a.entity = 'operator' and a.entity_id = o.id and a.action = 'sign_in') as last_sign_in,
  coalesce(o.two_factor_enabled, false) as two_factor_enabled`;

/** The Operators screen's list (admin): lock, session count and last sign-in per operator, by email; `q` matches email and name. */
export const operatorList = defineList({
  name: "operators",
  item: operatorSchema,
  summarySchema: noSummary,
  from: sql`operator o`,
  select: operatorColumns,
  id: { expr: sql`o.id`, type: "text" },
  sorts: {
    email: [{ expr: sql`lower(o.email)`, type: "text" }],
    created_at: [{ expr: sql`o.created_at`, type: "timestamptz" }],
  },
  unindexedSorts: {
    sorts: ["email", "created_at"],
    reason: "The operators are the provider's staff, tens of rows: sorting them whole costs nothing.",
  },
  defaultSort: "email",
  defaultOrder: "asc",
  filters: {},
  search: (m) => sql`o.email ilike ${m.pattern} or o.name ilike ${m.pattern}`,
  csv: [
    { header: "Email", value: (o) => o.email },
    { header: "Name", value: (o) => o.name },
    { header: "Role", value: (o) => o.role },
    { header: "Deactivated", value: (o) => o.banned },
    { header: "Locked Until", value: (o) => o.locked_until },
    { header: "Sessions", value: (o) => o.active_sessions },
    { header: "Last Sign-in", value: (o) => o.last_sign_in },
    { header: "Created", value: (o) => o.created_at },
  ],
});

/** One operator as the list shows it (answers of the mutations). */
async function operatorRow(db: Database, id: string): Promise<OperatorRow> {
  const [row] = await queryRows<OperatorRow>(db, sql`select ${operatorColumns} from operator o where o.id = ${id}`);
  return toJson(row);
}

async function findOperator(db: Database, id: string) {
  const [row] = await db.select().from(operator).where(eq(operator.id, id));
  return requireFound(row, msg.operators.notFound);
}

/** POST /api/operators `{ email, name, role, password }` → 201 the operator (admin); 409 when the email is taken. */
const create = apiRoute(operatorsBase, "admin", {
  method: "post",
  path: "/",
  tags: ["Operators"],
  summary: "Create an operator",
  request: { body: jsonBody(createOperatorSchema) },
  responses: {
    201: jsonResponse(operatorSchema, "Created"),
    409: jsonResponse(z.object({}), "Email taken"),
    ...invalidResponse,
  },
});

/**
 * PATCH /api/operators/{operatorId} `{ role?, name?, banned? }` → the operator; deactivating ends
 * their sessions and deletes their API tokens, demoting lowers their tokens above the new role. 409 when it would leave no active admin (decided under row locks of the active
 * admins, so two admins removing each other at once cannot both succeed).
 */
const update = apiRoute(operatorsBase, "admin", {
  method: "patch",
  path: "/{operatorId}",
  tags: ["Operators"],
  summary: "Change role, name, or deactivate",
  request: { params, body: jsonBody(updateOperatorSchema) },
  responses: {
    200: jsonResponse(operatorSchema, "Updated"),
    409: jsonResponse(errorBodySchema, "It would leave no active admin"),
    ...notFound404,
    ...invalidResponse,
  },
});

/**
 * POST /api/operators/{operatorId}/reset-password `{ password }` → `{ revoked }`: sets another
 * operator's password, ends their sessions and deletes their API tokens (audited
 * `api_token_revoked`, reason `password_reset`). 403 for one's own id (Change password is the way).
 * Session-only, like every credential route (`changesCredentials`).
 */
const resetPassword = apiRoute(operatorsBase, "admin", {
  method: "post",
  path: "/{operatorId}/reset-password",
  tags: ["Operators"],
  summary: "Set a new password",
  request: { params, body: jsonBody(resetPasswordSchema) },
  responses: {
    200: jsonResponse(revokedSchema, "Password set, sessions ended"),
    403: jsonResponse(errorBodySchema, "The operator's own id, or a role below admin"),
    ...notFound404,
    ...invalidResponse,
  },
});

/**
 * POST /api/operators/{operatorId}/revoke-sessions → `{ revoked }` (number of sessions ended); the
 * operator's API tokens are deleted too (audited `api_token_revoked`, reason `sessions_revoked`).
 */
const revoke = apiRoute(operatorsBase, "admin", {
  method: "post",
  path: "/{operatorId}/revoke-sessions",
  tags: ["Operators"],
  summary: "End every session of an operator",
  request: { params },
  responses: { 200: jsonResponse(revokedSchema, "Sessions ended"), ...notFound404 },
});

/** POST /api/operators/{operatorId}/unlock → `{ ok }`: releases a lock after failed sign-ins. */
const unlock = apiRoute(operatorsBase, "admin", {
  method: "post",
  path: "/{operatorId}/unlock",
  tags: ["Operators"],
  summary: "Unlock after failed sign-ins",
  request: { params },
  responses: { 200: jsonResponse(okSchema, "Unlocked"), ...notFound404 },
});

/**
 * POST /api/operators/{operatorId}/reset-two-factor → `{ revoked }` (admin): removes another
 * operator's authenticator app and recovery codes (they sign in with their password, then set it up
 * again if REQUIRE_MFA covers them) and ends their sessions. Audited `two_factor_reset`. 403 for
 * one's own id: turning one's own off needs a current code (POST /api/auth/two-factor/disable).
 */
const resetTwoFactor = apiRoute(operatorsBase, "admin", {
  method: "post",
  path: "/{operatorId}/reset-two-factor",
  tags: ["Operators"],
  summary: "Reset two-factor sign-in",
  request: { params },
  responses: {
    200: jsonResponse(revokedSchema, "Second factor removed, sessions ended"),
    403: jsonResponse(errorBodySchema, "The operator's own id, or a role below admin"),
    ...notFound404,
  },
});

export const operatorsRouter = createRouter();

/** GET /api/operators (admin) and its CSV export: docs/lists.md. */
mountList(operatorsRouter, {
  base: operatorsBase,
  path: "/",
  access: "admin",
  tags: ["Operators"],
  summary: "List operators",
  description: "Operators by email with lock, sessions and last sign-in; `q` searches email and name.",
  list: operatorList,
});

operatorsRouter
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const hash = await hashPassword(input.password);
    const id = await mutate(c, async (tx) => {
      const [taken] = await tx.select({ id: operator.id }).from(operator).where(eq(operator.email, input.email));
      if (taken) throw new HttpError(409, "conflict", msg.operators.emailTaken, { email: msg.operators.emailTaken });
      const newId = crypto.randomUUID();
      await tx
        .insert(operator)
        .values({ id: newId, email: input.email, name: input.name, role: input.role, emailVerified: true });
      await tx
        .insert(operator_account)
        .values({ id: crypto.randomUUID(), accountId: newId, providerId: "credential", userId: newId, password: hash });
      return {
        result: newId,
        audit: [
          {
            action: "create",
            entity: "operator",
            entity_id: newId,
            after: { email: input.email, name: input.name, role: input.role },
          },
        ],
      };
    });
    return c.json(await operatorRow(c.get("db"), id), 201);
  })
  .openapi(update, async (c) => {
    const { operatorId } = c.req.valid("param");
    const patch = c.req.valid("json");
    const self = c.get("session")!.user.id === operatorId;
    if (self && (patch.banned === true || (patch.role && patch.role !== "admin"))) {
      throw new HttpError(422, "validation_failed", msg.operators.notSelf);
    }
    await mutate(c, async (tx) => {
      // Row locks on every active admin, taken before the target is read: of two admins demoting
      // or deactivating each other at once, the second waits and then sees the first's change.
      const admins = await queryRows<{ id: string }>(
        tx,
        sql`select id from operator where role = 'admin' and coalesce(banned, false) = false order by id for update`,
      );
      const before = await findOperator(tx, operatorId);
      const removesAdmin =
        admins.some((a) => a.id === operatorId) &&
        (patch.banned === true || (patch.role !== undefined && patch.role !== "admin"));
      if (removesAdmin && admins.length <= 1) throw conflict(msg.operators.lastAdmin);
      // Only what differs is written and audited: a save that changes nothing leaves no row.
      const current = { ...before, banned: before.banned ?? false } as Record<string, unknown>;
      const changed = Object.fromEntries(Object.entries(patch).filter(([k, v]) => v !== undefined && current[k] !== v));
      if (Object.keys(changed).length === 0) return { result: null, audit: [] };
      await tx
        .update(operator)
        .set({ ...changed, updatedAt: new Date() })
        .where(eq(operator.id, operatorId));
      if (changed.banned === true) await revokeSessions(tx, operatorId);
      // An operator's API tokens never act above them: deactivation ends them, demotion lowers them.
      const tokens =
        changed.banned === true
          ? await revokeOperatorTokens(tx, operatorId, "operator_deactivated")
          : changed.role
            ? await lowerOperatorTokens(tx, operatorId, changed.role as OperatorRole)
            : [];
      const was = Object.fromEntries(Object.keys(changed).map((k) => [k, current[k]]));
      return {
        result: null,
        audit: [
          { action: "update", entity: "operator", entity_id: operatorId, before: was, after: changed },
          ...tokens,
        ],
      };
    });
    return c.json(await operatorRow(c.get("db"), operatorId), 200);
  })
  .openapi(resetPassword, async (c) => {
    const { operatorId } = c.req.valid("param");
    // One's own password changes only with the current one (Change password, throttled like
    // sign-in): a stolen admin session must not be able to take the account for good.
    if (c.get("session")!.user.id === operatorId) throw new HttpError(403, "forbidden", msg.operators.notSelfReset);
    const hash = await hashPassword(c.req.valid("json").password);
    const revoked = await mutate(c, async (tx) => {
      await findOperator(tx, operatorId);
      await tx
        .update(operator_account)
        .set({ password: hash, updatedAt: new Date() })
        .where(and(eq(operator_account.userId, operatorId), eq(operator_account.providerId, "credential")));
      const n = await revokeSessions(tx, operatorId);
      // Whoever knew the old password may have made tokens with it: they end with it.
      const tokens = await revokeOperatorTokens(tx, operatorId, "password_reset");
      return {
        result: n,
        audit: [{ action: "reset_password", entity: "operator", entity_id: operatorId }, ...tokens],
      };
    });
    return c.json({ revoked }, 200);
  })
  .openapi(revoke, async (c) => {
    const { operatorId } = c.req.valid("param");
    const revoked = await mutate(c, async (tx) => {
      await findOperator(tx, operatorId);
      const n = await revokeSessions(tx, operatorId);
      // Ending an operator's access everywhere includes their scripts' tokens.
      const tokens = await revokeOperatorTokens(tx, operatorId, "sessions_revoked");
      return {
        result: n,
        audit: [
          { action: "revoke_sessions", entity: "operator", entity_id: operatorId, after: { revoked: n } },
          ...tokens,
        ],
      };
    });
    return c.json({ revoked }, 200);
  })
  .openapi(resetTwoFactor, async (c) => {
    const { operatorId } = c.req.valid("param");
    if (c.get("session")!.user.id === operatorId) throw new HttpError(403, "forbidden", msg.twoFactor.notSelfReset);
    const revoked = await mutate(c, async (tx) => {
      const target = await findOperator(tx, operatorId);
      await tx.delete(operator_two_factor).where(eq(operator_two_factor.userId, operatorId));
      await tx.delete(operator_totp_used).where(eq(operator_totp_used.operator_id, operatorId));
      if (target.twoFactorEnabled)
        await tx
          .update(operator)
          .set({ twoFactorEnabled: false, updatedAt: new Date() })
          .where(eq(operator.id, operatorId));
      const n = await revokeSessions(tx, operatorId);
      return {
        result: n,
        audit: [
          {
            action: "two_factor_reset",
            entity: "operator",
            entity_id: operatorId,
            before: { two_factor_enabled: target.twoFactorEnabled === true },
            after: { two_factor_enabled: false, revoked: n },
          },
        ],
      };
    });
    return c.json({ revoked }, 200);
  })
  .openapi(unlock, async (c) => {
    const { operatorId } = c.req.valid("param");
    await mutate(c, async (tx) => {
      const target = await findOperator(tx, operatorId);
      await tx.delete(auth_throttle).where(eq(auth_throttle.key, accountKey(target.email)));
      return { result: null, audit: [{ action: "unlock", entity: "operator", entity_id: operatorId }] };
    });
    return c.json({ ok: true as const }, 200);
  });

/** POST /api/account/revoke-sessions → `{ revoked }`: "sign out everywhere" for the signed-in operator. */
const signOutEverywhere = apiRoute(accountBase, "viewer", {
  method: "post",
  path: "/revoke-sessions",
  tags: ["Account"],
  summary: "Sign out everywhere",
  responses: { 200: jsonResponse(revokedSchema, "Sessions ended") },
});

export const accountRouter = createRouter().openapi(signOutEverywhere, async (c) => {
  const me = c.get("session")!.user.id;
  const revoked = await mutate(c, async (tx) => {
    const n = await revokeSessions(tx, me);
    return {
      result: n,
      audit: [{ action: "revoke_sessions", entity: "operator", entity_id: me, after: { revoked: n } }],
    };
  });
  return c.json({ revoked }, 200);
});
