import { sql, type SQL } from "drizzle-orm";
import { commentSortKeys, type CommentStatus, commentStatuses } from "../../domain/enums";
import {
  commentListItemSchema,
  commentSummarySchema,
  type CommentDetail,
  type CommentFilter,
} from "../../domain/comments";
import { queryRows, type Database } from "../db/client";
import { userFullName } from "../db/schema";
import { toJson } from "../http/list";
import {
  allOf,
  anyOf,
  anyValue,
  customerNamed,
  defineList,
  idFilter,
  joinedNameSort,
  matchingValues,
  referencedName,
  searchMatch,
  statusCardsSql,
  statusFilter,
  userNameKey,
  type SearchForms,
  type SortKey,
} from "../http/lists";
import type { Tx } from "../audit";

/** The joins of every comment query: the names come from SQL, never from a lookup per row. */
const commentFrom = sql`skill_comments sm
  join users_data u on u.user_id = sm.user_id
  join skills s on s.skill_id = sm.skill_id
  join customers c on c.customer_id = sm.customer_id`;

/** The list's filters, which a bulk change by filter reads too. */
const commentFilters = {
  status: statusFilter(commentStatuses, sql`sm.status`),
  customer_id: idFilter(sql`sm.customer_id`),
};

/**
 * `q` of the comments list: the comment, the commenter's full name, the skill's and the customer's
 * name (each through its pg_trgm index) and the status. Counts and summaries gather the matching
 * comments branch by branch (a union, hashed once) rather than test `user_id = any(array(...))` per
 * row: a common term matches thousands of users, and testing each candidate row against such an
 * array took seconds at a million users. A page walking the date index tests each comment with
 * primary-key lookups instead (`test`): a common term matches every few rows, and building the
 * union for 50 of them took 250 ms (EXISTS, hashed by the planner, 30 ms).
 */
const commentSearch = (m: ReturnType<typeof searchMatch>): SearchForms => {
  const statuses = matchingValues(commentStatuses, m);
  return {
    gather: sql`sm.comment_id in (
      select x.comment_id from skill_comments x where x.comment_value ilike ${m.pattern}
      union select x.comment_id from skill_comments x join users_data u2 on u2.user_id = x.user_id where ${userFullName("u2")} ilike ${m.pattern}
      union select x.comment_id from skill_comments x join skills s2 on s2.skill_id = x.skill_id where s2.skill_name ilike ${m.pattern}
      union select x.comment_id from skill_comments x join customers c2 on c2.customer_id = x.customer_id where c2.customer_name ilike ${m.pattern}
      ${statuses.length ? sql`union select x.comment_id from skill_comments x where ${anyValue(sql`x.status`, statuses)}` : sql``})`,
    // Each name read by primary key (scalar subqueries, which the planner does not hash as it does EXISTS).
    test: anyOf([
      sql`sm.comment_value ilike ${m.pattern}`,
      referencedName(
        { key: sql`sm.user_id`, table: sql`users_data u2`, id: sql`u2.user_id`, name: userFullName("u2") },
        m,
      ),
      referencedName(
        { key: sql`sm.skill_id`, table: sql`skills s2`, id: sql`s2.skill_id`, name: sql`s2.skill_name` },
        m,
      ),
      customerNamed(sql`sm.customer_id`, m),
      anyValue(sql`sm.status`, statuses),
    ]).test,
  };
};

const cards = (rows: SQL) => sql`
  select count(*)::int as total,
    count(*) filter (where status = 'pending')::int as pending,
    count(*) filter (where status = 'active')::int as active,
    count(*) filter (where status = 'inactive')::int as inactive,
    count(*) filter (where status = 'rejected')::int as rejected
  from ${rows}`;

/**
 * SPEC.md §2 "/comments": every comment with its commenter's name, skill name and customer name
 * (joins); filters status and customer_id; `q` matches comment, user name, skill, customer and
 * status; sorts on every column but Comment. Cards (Total, Pending, Active, Inactive, Rejected)
 * over the filtered list: from the maintained status counters (migration comment_counters) when
 * only the status narrows it, else counted over the matches.
 */
export const commentList = defineList({
  name: "comments",
  item: commentListItemSchema,
  summarySchema: commentSummarySchema,
  from: commentFrom,
  // Filters and search name skill_comments alone (the names through subqueries): counts and a
  // search's page read it without the joins.
  base: { from: sql`skill_comments sm`, sorts: ["status", "created_at"] },
  select: sql`sm.comment_id, sm.customer_id, c.customer_name, sm.skill_id, s.skill_name, sm.user_id, u.first_name, u.last_name,
    sm.comment_value, sm.status, sm.created_at, sm.updated_at`,
  id: { expr: sql`sm.comment_id`, type: "uuid" },
  sorts: {
    // Walks users by name (users_data_name_sort_idx), then each user's comments.
    user: [userNameKey, { expr: sql`u.user_id`, type: "uuid" }],
    skill_name: joinedNameSort(sql`s.skill_name`, sql`s.skill_id`),
    customer_name: joinedNameSort(sql`c.customer_name`, sql`c.customer_id`),
    status: [{ expr: sql`sm.status`, type: "text" }],
    created_at: [{ expr: sql`sm.created_at`, type: "timestamptz" }],
  } satisfies Record<(typeof commentSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: commentFilters,
  search: commentSearch,
  summaryCounts: "matches",
  summary: ({ filters, q, matching }) =>
    q || filters.customer_id
      ? cards(matching(sql`sm.status`))
      : statusCardsSql("skill_comments", commentStatuses, filters.status),
  totalFromSummary: () => (s) => s.total,
  cacheSummary: true,
  csv: [
    { header: "Comment ID", value: (c) => c.comment_id },
    { header: "User ID", value: (c) => c.user_id },
    { header: "First Name", value: (c) => c.first_name },
    { header: "Last Name", value: (c) => c.last_name },
    { header: "Skill", value: (c) => c.skill_name },
    { header: "Customer", value: (c) => c.customer_name },
    { header: "Comment", value: (c) => c.comment_value },
    { header: "Status", value: (c) => c.status },
    { header: "Created", value: (c) => c.created_at },
  ],
});

/** The WHERE of a bulk change by filter: the list's filters and search, exactly as the list reads them. */
export function commentFilterWhere(filter: CommentFilter): SQL {
  return allOf([
    filter.status ? commentFilters.status.where(filter.status) : undefined,
    filter.customer_id ? commentFilters.customer_id.where(filter.customer_id) : undefined,
    filter.q ? commentSearch(searchMatch(filter.q)).gather : undefined,
  ]);
}

/** Counts by current status of the comments matching `where` (over `skill_comments sm` alone), bounded to `limit + 1` rows. */
export async function countByStatus(
  db: Database | Tx,
  where: SQL,
  limit: number,
): Promise<Record<CommentStatus, number>> {
  const [row] = await queryRows<Record<CommentStatus, number>>(
    db,
    sql`
    select count(*) filter (where status = 'pending')::int as pending,
      count(*) filter (where status = 'active')::int as active,
      count(*) filter (where status = 'inactive')::int as inactive,
      count(*) filter (where status = 'rejected')::int as rejected
    from (select sm.status from skill_comments sm where ${where} limit ${limit + 1}) m`,
  );
  return row;
}

const detailSelect = sql`sm.comment_id, sm.customer_id, c.customer_name, sm.skill_id, s.skill_name, s.skill_description, sm.user_id,
  u.first_name, u.last_name, u.email, sm.comment_value, sm.status, sm.created_at, sm.updated_at,
  (select a.operator_email from audit_log a where a.entity = 'comment' and a.entity_id = sm.comment_id::text
    order by a.created_at desc, a.audit_id desc limit 1) as decided_by`;

/** One comment with its skill, customer and user, and who last changed its status; null when unknown. */
export async function getComment(db: Database | Tx, commentId: string): Promise<CommentDetail | null> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${detailSelect} from ${commentFrom} where sm.comment_id = ${commentId}`,
  );
  return row ? (toJson(row) as CommentDetail) : null;
}

/**
 * The review queue (beyond the spec): the oldest pending comment after `after` (a comment id: its
 * (created_at, comment_id) position; skipped ones stay pending), optionally of one customer, and how
 * many pending comments remain (maintained counter, or counted for one customer).
 */
export async function nextPending(
  db: Database,
  options: { after?: string; customerId?: string },
): Promise<{ comment: CommentDetail | null; remaining: number }> {
  const position = options.after
    ? sql`and (sm.created_at, sm.comment_id) > (select x.created_at, x.comment_id from skill_comments x where x.comment_id = ${options.after})`
    : sql``;
  const customer = options.customerId ? sql`and sm.customer_id = ${options.customerId}` : sql``;
  const remaining = options.customerId
    ? sql`(select count(*) from skill_comments r where r.status = 'pending' and r.customer_id = ${options.customerId})::int`
    : sql`(select coalesce(sum(n), 0) from status_counts where entity = 'skill_comments' and status = 'pending')::int`;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select ${remaining} as remaining, q.* from (select 1) one left join lateral (
      select ${detailSelect} from ${commentFrom}
      where sm.status = 'pending' ${customer} ${position}
      order by sm.created_at, sm.comment_id limit 1) q on true`,
  );
  const { remaining: left, ...rest } = rows[0];
  return { comment: rest.comment_id ? (toJson(rest) as CommentDetail) : null, remaining: Number(left) };
}
