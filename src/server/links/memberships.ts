import { and, eq } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { sql } from "drizzle-orm";
import type { AuditRequest, Tx } from "../audit";
import type { Written } from "../db/records";
import { recordDeletion, takeRows } from "../deleted";
import { teams, teams_users, users_data } from "../db/schema";
import { HttpError, notFound } from "../http/errors";
import { membershipAudit } from "./audit";

/**
 * The one rule of a team membership, from the user's page (Add Team) and the team's (Add Member):
 * a user joins only an active team of their own customer (the membership's customer_id is the
 * user's); the team is share-locked so that it cannot be archived or deleted before the row is
 * written. `result.created` is false when already a member (nothing written).
 * @throws HttpError 404 unknown user or team; 422 (field `field`) a team of another customer or an
 * inactive team, or, with `activeUser`, a user who is not active.
 */
export async function addMember(
  tx: Tx,
  teamId: string,
  userId: string,
  options: { field: "team_id" | "user_id"; activeUser?: boolean },
): Promise<Written<{ created: boolean; customer_id: string }>> {
  const [user] = await tx
    .select({ customer_id: users_data.customer_id, status: users_data.status })
    .from(users_data)
    .where(eq(users_data.user_id, userId));
  if (!user) throw notFound(msg.users.notFound);
  const [team] = await tx
    .select({ customer_id: teams.customer_id, status: teams.status })
    .from(teams)
    .where(eq(teams.team_id, teamId))
    .for("share");
  if (!team) throw notFound(msg.teams.notFound);
  const refuse = (message: string) => new HttpError(422, "validation_failed", message, { [options.field]: message });
  if (team.customer_id !== user.customer_id)
    throw refuse(options.field === "team_id" ? msg.users.teamOfOtherCustomer : msg.teams.userOfOtherCustomer);
  if (team.status !== "active") throw refuse(msg.users.teamNotActive);
  if (options.activeUser && user.status !== "active") throw refuse(msg.teams.userNotActive);
  const none = { result: { created: false, customer_id: user.customer_id }, audit: [] };
  // Already a member: nothing to do (checked first, as an adopted database may lack the key).
  const [member] = await tx
    .select({ team_id: teams_users.team_id })
    .from(teams_users)
    .where(and(eq(teams_users.team_id, teamId), eq(teams_users.user_id, userId)))
    .limit(1);
  if (member) return none;
  const [row] = await tx
    .insert(teams_users)
    .values({ team_id: teamId, user_id: userId, customer_id: user.customer_id })
    .onConflictDoNothing()
    .returning({ team_id: teams_users.team_id });
  if (!row) return none;
  return {
    result: { created: true, customer_id: user.customer_id },
    audit: membershipAudit("add_member", { team_id: teamId, user_id: userId, customer_id: user.customer_id }),
  };
}

/**
 * Removes a user from a team, from the team's page (Remove Member) and the user's (Leave Team):
 * the membership is deleted and kept as a snapshot for Undo (docs/undo-and-restore.md).
 * @returns the deletion's id, with the membership's audit row.
 * @throws HttpError 404 with `notMember` (each page's words) when the user is not in the team.
 */
export async function removeMember(
  tx: Tx,
  c: AuditRequest,
  teamId: string,
  userId: string,
  notMember: string,
): Promise<Written<string>> {
  const [row] = await takeRows(tx, "teams_users", sql`team_id = ${teamId} and user_id = ${userId}`);
  if (!row) throw new HttpError(404, "not_found", notMember);
  return {
    result: await recordDeletion(tx, c, { entity: "team_member", row }),
    audit: membershipAudit("remove_member", { team_id: teamId, user_id: userId, customer_id: String(row.customer_id) }),
  };
}
