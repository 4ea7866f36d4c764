/**
 * Bulk actions on users (docs/bulk-actions.md): Archive, Unarchive, Set Status, Add to Team (an
 * active team of the user's own customer, as the user page's Add Team), Add Role and Remove Role
 * (users_roles). The rules are the user edit's (PATCH /api/users/{userId}): a customer's user may
 * be deactivated or lose any role there, so the bulk actions allow it too.
 */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { userRoles, userStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import type { AuditEntry, Tx } from "../audit";
import { defineBulkAction, uuidArray, type BulkRowState } from "../bulk/engine";
import { lockActive, statusAction, statusActions } from "../bulk/kinds";
import { queryRows } from "../db/client";
import { HttpError, notFound } from "../http/errors";
import { membershipAudit, removeMembers } from "../links";
import { recordNameSql } from "../record-names";
import { userList } from "./queries";

const user = {
  entity: "users",
  list: userList,
  table: "users_data",
  alias: "u",
  id: "user_id",
  auditEntity: "user",
} as const;
/** A user in a preview or report: name and email ("Ana Ruiz · ana@acme.example"), or the email alone. */
const label = recordNameSql.user("u");

const hasRole = (role: string) =>
  sql`exists (select 1 from users_roles r where r.user_id = u.user_id and r.role = ${role})`;
const roles = sql`jsonb_build_object('roles', coalesce((select jsonb_agg(r.role order by r.role) from users_roles r where r.user_id = u.user_id), '[]'::jsonb))`;
const roleParams = z.strictObject({ role: z.enum(userRoles) });
const isMember = (teamId: string) =>
  sql`exists (select 1 from teams_users tu where tu.team_id = ${teamId} and tu.user_id = u.user_id)`;

/** The audit rows of a role change: the user's roles before and after. */
function roleAudit(
  rows: Array<{ id: string; before: Record<string, unknown> | null }>,
  change: (r: string[]) => string[],
) {
  return rows.map((r): AuditEntry => {
    const before = ((r.before?.roles as string[]) ?? []).slice();
    return {
      action: "update",
      entity: "user",
      entity_id: r.id,
      before: { roles: before },
      after: { roles: change(before) },
    };
  });
}

/** Gives `rows` the role (one statement) and returns their audit rows. */
async function addRole(tx: Tx, role: string, rows: BulkRowState[]) {
  await tx.execute(sql`insert into users_roles (user_id, role)
    select u.user_id, ${role} from users_data u where u.user_id = any(${uuidArray(rows.map((r) => r.id))})
    on conflict do nothing`);
  return roleAudit(rows, (r) => [...r, role].sort());
}

/** Takes the role from `rows` (one statement) and returns their audit rows. */
async function removeRole(tx: Tx, role: string, rows: BulkRowState[]) {
  await tx.execute(
    sql`delete from users_roles where role = ${role} and user_id = any(${uuidArray(rows.map((r) => r.id))})`,
  );
  return roleAudit(rows, (r) => r.filter((x) => x !== role));
}

export const userBulkActions = [
  // The verbs of every other list (Archive: inactive; Unarchive: active); Set status for pending too.
  ...statusActions({ ...user, name: "email", label }, [
    { action: "archive", summary: "Archive users" },
    {
      action: "unarchive",
      summary: "Unarchive users",
      skips: [{ reason: msg.bulk.notArchived, when: sql`u.status = 'pending'` }],
    },
  ]),
  statusAction<{ status: (typeof userStatuses)[number] }>({
    ...user,
    name: "email",
    label,
    action: "set_status",
    summary: "Set the status of users",
    params: z.strictObject({ status: z.enum(userStatuses) }),
    to: (p) => p.status,
  }),
  defineBulkAction<{ team_id: string }>({
    ...user,
    action: "add_to_team",
    summary: "Add users to a team",
    params: z.strictObject({ team_id: z.guid({ error: msg.teams.notFound }) }),
    label,
    before: sql`null::jsonb`,
    check: async (db, p) => {
      const [team] = await queryRows<{ status: string }>(
        db,
        sql`select status from teams where team_id = ${p.team_id}`,
      );
      if (!team) throw notFound(msg.teams.notFound);
      if (team.status !== "active")
        throw new HttpError(422, "validation_failed", msg.users.teamNotActive, { team_id: msg.users.teamNotActive });
    },
    skips: (p) => [
      {
        reason: msg.bulk.otherCustomer,
        when: sql`u.customer_id <> (select t.customer_id from teams t where t.team_id = ${p.team_id})`,
      },
      {
        reason: msg.bulk.alreadyMember,
        when: isMember(p.team_id),
      },
    ],
    apply: async (tx, p, rows) => {
      await lockActive(tx, "teams", p.team_id, msg.users.teamNotActive);
      const added = await queryRows<{ user_id: string; customer_id: string }>(
        tx,
        sql`insert into teams_users (team_id, user_id, customer_id)
          select ${p.team_id}, u.user_id, u.customer_id from users_data u
          where u.user_id = any(${uuidArray(rows.map((r) => r.id))})
            and not exists (select 1 from teams_users tu where tu.team_id = ${p.team_id} and tu.user_id = u.user_id)
          returning user_id::text, customer_id::text`,
      );
      return added.flatMap((a) => membershipAudit("add_member", { team_id: p.team_id, ...a }));
    },
    // Undo: the membership it made is removed, as one click removes it, unless it is gone already.
    undo: {
      skips: (p) => [{ reason: msg.bulk.undoNoLongerMember, when: sql`not ${isMember(p.team_id)}` }],
      apply: (tx, p, rows, run) =>
        removeMembers(
          tx,
          rows.map((r) => ({ team_id: p.team_id, user_id: r.id })),
          run,
        ),
    },
  }),
  defineBulkAction<{ role: (typeof userRoles)[number] }>({
    ...user,
    action: "add_role",
    summary: "Give users a role",
    params: roleParams,
    label,
    before: roles,
    skips: (p) => [{ reason: msg.bulk.alreadyHasRole, when: hasRole(p.role) }],
    apply: (tx, p, rows) => addRole(tx, p.role, rows),
    // Undo: the role is taken back, as a user edit could, unless it was taken since.
    undo: {
      skips: (p) => [{ reason: msg.bulk.undoNoLongerHasRole, when: sql`not ${hasRole(p.role)}` }],
      apply: (tx, p, rows) => removeRole(tx, p.role, rows),
    },
  }),
  defineBulkAction<{ role: (typeof userRoles)[number] }>({
    ...user,
    action: "remove_role",
    summary: "Take a role from users",
    params: roleParams,
    label,
    before: roles,
    skips: (p) => [{ reason: msg.bulk.lacksRole, when: sql`not ${hasRole(p.role)}` }],
    apply: (tx, p, rows) => removeRole(tx, p.role, rows),
    // Undo: the role is given back, as a user edit could, unless it was given again since.
    undo: {
      skips: (p) => [{ reason: msg.bulk.undoHasRoleAgain, when: hasRole(p.role) }],
      apply: (tx, p, rows) => addRole(tx, p.role, rows),
    },
  }),
];
