/**
 * How the console names a record where another of the same name could be taken for it (bulk
 * previews and reports, Recently deleted, restore reports): a team with its customer ("Support ·
 * Schneider Inc"), a user with their email (their name first when they have one), a prompt with
 * its skill. Each is an SQL expression over a row of the record's table under `alias`.
 */
import { sql, type SQL } from "drizzle-orm";

const at = (alias: string, column: string) => sql`${sql.identifier(alias)}.${sql.identifier(column)}`;

export const recordNameSql = {
  team: (t: string): SQL =>
    sql`concat_ws(' · ', ${at(t, "team_name")}, (select c.customer_name from customers c where c.customer_id = ${at(t, "customer_id")}))`,
  user: (u: string): SQL =>
    sql`concat_ws(' · ', nullif(btrim(coalesce(${at(u, "first_name")}, '') || ' ' || coalesce(${at(u, "last_name")}, '')), ''), ${at(u, "email")})`,
  prompt: (p: string): SQL =>
    sql`concat_ws(' · ', ${at(p, "prompt_title")}, (select s.skill_name from skills s where s.skill_id = ${at(p, "skill_id")}))`,
};
