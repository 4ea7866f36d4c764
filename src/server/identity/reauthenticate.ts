/**
 * Confirming it is you (docs/identity.md, "Confirming it is you"): the signed-in operator proves
 * it is them again, with their password or a current code, before admin actions on operators'
 * credentials (src/server/http/reauth.ts says which and for how long).
 */
import { eq, sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { reauthenticatedSchema, reauthenticateSchema } from "../../domain/operators";
import { writeAudit } from "../audit";
import { queryRows } from "../db/client";
import { operator_session } from "../db/schema";
import { HttpError } from "../http/errors";
import { reauthMaxFailures, reauthWindowMs } from "../http/reauth";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse } from "../http/route";
import { passwordCheck, spendCode } from "./two-factor-routes";
import type { Context } from "hono";
import type { AppEnv } from "../http/env";

const accountBase = "/api/account";

/**
 * POST /api/account/reauthenticate `{ current_password }` or `{ code }` → 200 `{ confirmed_until }`
 * (ISO time): the session may act on operators' credentials until then (10 minutes). Session only
 * (an API token is refused). Audited `reauthenticate` (with the method), a wrong answer
 * `reauthenticate_failed`.
 * Errors: 422 `validation_failed` for a wrong password or code (on the field), a code already used,
 * a password asked of an account that has none or a code of one without two-factor; the fifth wrong
 * answer in a row ends the session: 401 `unauthorized` (sign in again).
 */
const reauthenticate = apiRoute(accountBase, "viewer", {
  method: "post",
  path: "/reauthenticate",
  tags: ["Account"],
  summary: "Confirm it is you",
  description:
    "Confirms the signed-in operator with their password or a current code of their authenticator app, for the admin actions on operators' credentials that ask for it (403 `reauthentication_required`): they go through for 10 minutes. The fifth wrong answer in a row ends the session.",
  request: { body: jsonBody(reauthenticateSchema) },
  responses: {
    200: jsonResponse(reauthenticatedSchema, "Confirmed: until when it holds"),
    ...invalidResponse,
  },
});

/** The session's confirmation row, made when first needed; `failures` after this answer. */
async function recordFailure(c: Context<AppEnv>, sessionId: string, method: string): Promise<number> {
  const [row] = await queryRows<{ failures: number }>(
    c.get("db"),
    sql`insert into operator_reauthentication (session_id, operator_id, failures)
      values (${sessionId}, ${c.get("session")!.user.id}, 1)
      on conflict (session_id) do update set failures = operator_reauthentication.failures + 1
      returning failures`,
  );
  await writeAudit(c.get("db"), c, [
    {
      action: "reauthenticate_failed",
      entity: "operator",
      entity_id: c.get("session")!.user.id,
      after: { method, failures: row.failures },
    },
  ]);
  return row.failures;
}

export const reauthenticateRouter = createRouter().openapi(reauthenticate, async (c) => {
  const body = c.req.valid("json");
  const session = c.get("session")!;
  const me = session.user as typeof session.user & { twoFactorEnabled?: boolean | null };
  const sessionId = (session.session as { id: string }).id;
  const method = body.code !== undefined ? "code" : "password";
  let right: boolean;
  if (body.code !== undefined) {
    if (me.twoFactorEnabled !== true)
      throw new HttpError(422, "validation_failed", msg.reauth.noCode, { code: msg.reauth.noCode });
    const secret = (await c.get("auth").$context).secret;
    right = (await spendCode(c, c.get("auth"), secret, me.id, body.code)) === "right";
  } else {
    const checked = await passwordCheck(c.get("db"), me.id, body.current_password ?? "");
    if (checked === "none")
      throw new HttpError(422, "validation_failed", msg.reauth.noPassword, { current_password: msg.reauth.noPassword });
    right = checked === "right";
  }
  if (!right) {
    if ((await recordFailure(c, sessionId, method)) >= reauthMaxFailures) {
      await c.get("db").delete(operator_session).where(eq(operator_session.id, sessionId));
      throw new HttpError(401, "unauthorized", msg.reauth.ended);
    }
    const wrong = method === "code" ? msg.twoFactor.wrongCode : msg.reauth.wrongPassword;
    throw new HttpError(422, "validation_failed", wrong, { [method === "code" ? "code" : "current_password"]: wrong });
  }
  const now = c.get("clock")();
  await c.get("db").transaction(async (tx) => {
    await tx.execute(sql`insert into operator_reauthentication (session_id, operator_id, confirmed_at, failures)
      values (${sessionId}, ${me.id}, ${now.toISOString()}::timestamptz, 0)
      on conflict (session_id) do update set confirmed_at = excluded.confirmed_at, failures = 0`);
    await writeAudit(tx, c, [{ action: "reauthenticate", entity: "operator", entity_id: me.id, after: { method } }]);
  });
  return c.json({ confirmed_until: new Date(now.getTime() + reauthWindowMs).toISOString() }, 200);
});
