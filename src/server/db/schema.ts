/**
 * The database: the eleven tables of SPEC.md section 3 with their exact names and columns, and the
 * operator (staff sign-in) tables used by better-auth. Drizzle tables are the source of truth for
 * shapes; migrations under ./migrations are generated from this file by drizzle-kit.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  assignmentStatuses,
  commentStatuses,
  customerStatuses,
  platformStatuses,
  promptChangeKinds,
  promptChangeStatuses,
  promptStatuses,
  skillStatuses,
  skillTypes,
  teamStatuses,
  userRoles,
  userStatuses,
} from "../../domain/enums";

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => tz("created_at").notNull().defaultNow();
const updatedAt = () => tz("updated_at").notNull().defaultNow();
const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

/**
 * A user's full name exactly as `users_data_name_trgm` indexes it (migration 0001), for the table
 * aliased `alias`: a search that matches on this expression can use that index.
 */
export function userFullName(alias: string) {
  return sql.raw(`(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, ''))`);
}

/**
 * The users list's name sort key: the full name, or the email when there is none, lowercased
 * (what the User column shows). The list sorts by exactly this expression so that the planner
 * uses `users_data_name_sort_idx`.
 */
export function userNameSortKey(u: { first_name: unknown; last_name: unknown; email: unknown }) {
  return sql`lower(coalesce(nullif(btrim(coalesce(${u.first_name}, '') || ' ' || coalesce(${u.last_name}, '')), ''), ${u.email}))`;
}

export const customers = pgTable(
  "customers",
  {
    customer_id: uuid("customer_id").primaryKey().defaultRandom(),
    customer_name: text("customer_name").notNull(),
    valid_domains: text("valid_domains"),
    status: text("status", { enum: customerStatuses }).notNull().default("active"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("customers_status_check", oneOf("status", customerStatuses)),
    // One index per list sort, each ending with the tiebreak so that keyset paging seeks in it.
    index("customers_created_at_idx").on(t.created_at, t.customer_id),
    index("customers_updated_at_idx").on(t.updated_at, t.customer_id),
    index("customers_name_lower_idx").on(sql`lower(${t.customer_name})`, t.customer_id),
    index("customers_status_idx").on(t.status, t.customer_id),
    // The dashboard's oldest trial customer (docs/dashboard.md): the first of a status by creation.
    index("customers_status_created_idx").on(t.status, t.created_at, t.customer_id),
    // Which other customer already claims a domain (docs/decisions.md "Valid domains"):
    // customer_domains() is the normalised list, the index answers `&&` at any number of customers.
    index("customers_domains_idx").using("gin", sql`customer_domains(${t.valid_domains})`),
  ],
);

export const users_data = pgTable(
  "users_data",
  {
    user_id: uuid("user_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "restrict" }),
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    job_title: text("job_title"),
    status: text("status", { enum: userStatuses }).notNull().default("active"),
    last_login: tz("last_login"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("users_data_status_check", oneOf("status", userStatuses)),
    uniqueIndex("users_data_email_key").on(sql`lower(${t.email})`),
    index("users_data_customer_idx").on(t.customer_id, t.created_at),
    index("users_data_created_at_idx").on(t.created_at, t.user_id),
    index("users_data_name_sort_idx").on(userNameSortKey(t), t.user_id),
    index("users_data_email_sort_idx").on(sql`lower(${t.email})`, t.user_id),
    index("users_data_job_title_sort_idx").on(sql`lower(coalesce(${t.job_title}, ''))`, t.user_id),
    index("users_data_last_login_idx").on(sql`coalesce(${t.last_login}, '-infinity'::timestamptz)`, t.user_id),
    // Counts of recent logins read only this index (an expression index cannot answer them alone).
    index("users_data_last_login_at_idx").on(t.last_login),
    index("users_data_status_idx").on(t.status, t.user_id),
  ],
);

export const users_roles = pgTable(
  "users_roles",
  {
    user_id: uuid("user_id")
      .notNull()
      .references(() => users_data.user_id, { onDelete: "cascade" }),
    role: text("role", { enum: userRoles }).notNull(),
  },
  (t) => [
    primaryKey({ name: "users_roles_pkey", columns: [t.user_id, t.role] }),
    check("users_roles_role_check", oneOf("role", userRoles)),
  ],
);

export const teams = pgTable(
  "teams",
  {
    team_id: uuid("team_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "restrict" }),
    team_name: text("team_name").notNull(),
    status: text("status", { enum: teamStatuses }).notNull().default("active"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("teams_status_check", oneOf("status", teamStatuses)),
    index("teams_customer_idx").on(t.customer_id, t.team_name),
    index("teams_created_at_idx").on(t.created_at, t.team_id),
    index("teams_name_lower_idx").on(sql`lower(${t.team_name})`, t.team_id),
    index("teams_status_idx").on(t.status, t.team_id),
  ],
);

export const teams_users = pgTable(
  "teams_users",
  {
    team_id: uuid("team_id")
      .notNull()
      .references(() => teams.team_id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users_data.user_id, { onDelete: "cascade" }),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ name: "teams_users_pkey", columns: [t.team_id, t.user_id] }),
    index("teams_users_user_idx").on(t.user_id),
  ],
);

export const skills = pgTable(
  "skills",
  {
    skill_id: uuid("skill_id").primaryKey().defaultRandom(),
    skill_name: text("skill_name").notNull(),
    skill_description: text("skill_description"),
    type: text("type", { enum: skillTypes }).notNull().default("manual"),
    is_global: boolean("is_global").notNull().default(false),
    status: text("status", { enum: skillStatuses }).notNull().default("active"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("skills_type_check", oneOf("type", skillTypes)),
    check("skills_status_check", oneOf("status", skillStatuses)),
    // One index per list sort and filter, each ending with the tiebreak so that keyset paging seeks in it.
    index("skills_created_at_idx").on(t.created_at, t.skill_id),
    index("skills_name_lower_idx").on(sql`lower(${t.skill_name})`, t.skill_id),
    index("skills_status_idx").on(t.status, t.skill_name),
    index("skills_status_sort_idx").on(t.status, t.skill_id),
    index("skills_type_idx").on(t.type, t.skill_id),
    index("skills_global_idx").on(t.is_global, t.skill_id),
  ],
);

export const teams_skills = pgTable(
  "teams_skills",
  {
    team_id: uuid("team_id")
      .notNull()
      .references(() => teams.team_id, { onDelete: "cascade" }),
    skill_id: uuid("skill_id")
      .notNull()
      .references(() => skills.skill_id, { onDelete: "cascade" }),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "restrict" }),
    status: text("status", { enum: assignmentStatuses }).notNull().default("active"),
    assigned_at: tz("assigned_at").notNull().defaultNow(),
    /** Percent, 0 to 100; null until measured. */
    score: real("score"),
    last_used: tz("last_used"),
  },
  (t) => [
    primaryKey({ name: "teams_skills_pkey", columns: [t.team_id, t.skill_id] }),
    check("teams_skills_status_check", oneOf("status", assignmentStatuses)),
    check("teams_skills_score_check", sql`score is null or (score >= 0 and score <= 100)`),
    index("teams_skills_skill_idx").on(t.skill_id, t.status),
    // A skill's Team Assignments, newest first (SPEC.md §7).
    index("teams_skills_skill_assigned_idx").on(t.skill_id, t.assigned_at, t.team_id),
    index("teams_skills_team_status_idx").on(t.team_id, t.status),
  ],
);

export const skill_comments = pgTable(
  "skill_comments",
  {
    comment_id: uuid("comment_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "restrict" }),
    skill_id: uuid("skill_id")
      .notNull()
      .references(() => skills.skill_id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users_data.user_id, { onDelete: "cascade" }),
    comment_value: text("comment_value").notNull(),
    status: text("status", { enum: commentStatuses }).notNull().default("pending"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("skill_comments_status_check", oneOf("status", commentStatuses)),
    index("skill_comments_skill_idx").on(t.skill_id, t.created_at, t.comment_id),
    // /comments (docs/lists.md): each sort and filter has its index. Sorting by user, skill or
    // customer walks that table's name index and each record's comments by (id, comment_id).
    index("skill_comments_skill_sort_idx").on(t.skill_id, t.comment_id),
    index("skill_comments_customer_idx").on(t.customer_id, t.comment_id),
    index("skill_comments_customer_created_idx").on(t.customer_id, t.created_at, t.comment_id),
    index("skill_comments_user_idx").on(t.user_id, t.comment_id),
    index("skill_comments_created_at_idx").on(t.created_at, t.comment_id),
    index("skill_comments_status_idx").on(t.status, t.comment_id),
    // The status filter in date order, and the review queue (oldest pending first).
    index("skill_comments_status_created_idx").on(t.status, t.created_at, t.comment_id),
  ],
);

export const pedal_prompts = pgTable(
  "pedal_prompts",
  {
    prompt_id: uuid("prompt_id").primaryKey().defaultRandom(),
    prompt_title: text("prompt_title").notNull(),
    prompt_value: text("prompt_value"),
    // RESTRICT: deleting a skill must decide explicitly what happens to its prompts.
    skill_id: uuid("skill_id")
      .notNull()
      .references(() => skills.skill_id, { onDelete: "restrict" }),
    status: text("status", { enum: promptStatuses }).notNull().default("active"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check("pedal_prompts_status_check", oneOf("status", promptStatuses)),
    index("pedal_prompts_skill_idx").on(t.skill_id, t.created_at, t.prompt_id),
    // The /prompts list's sorts and status filter (docs/lists.md: an index per sort, id last).
    index("pedal_prompts_created_at_idx").on(t.created_at, t.prompt_id),
    index("pedal_prompts_updated_at_idx").on(t.updated_at, t.prompt_id),
    index("pedal_prompts_title_lower_idx").on(sql`lower(${t.prompt_title})`, t.prompt_id),
    index("pedal_prompts_status_idx").on(t.status, t.prompt_id),
  ],
);

export const platforms = pgTable(
  "platforms",
  {
    platform_id: uuid("platform_id").primaryKey().defaultRandom(),
    platform_name: text("platform_name").notNull(),
    platform_description: text("platform_description"),
    status: text("status", { enum: platformStatuses }).notNull().default("active"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    /**
     * "Changes need review" (docs/prompt-review.md): under PROMPT_REVIEW=protected, a change to a
     * prompt actively assigned here waits for a second operator. Null (an adopted row) is false.
     */
    needs_review: boolean("needs_review").notNull().default(false),
    /** The `{{variables}}` the platform fills in; null when it declares none (nothing is checked). */
    provided_variables: text("provided_variables").array(),
  },
  (t) => [
    check("platforms_status_check", oneOf("status", platformStatuses)),
    index("platforms_needs_review_idx").on(t.needs_review, t.platform_id),
    index("platforms_created_at_idx").on(t.created_at, t.platform_id),
    index("platforms_updated_at_idx").on(t.updated_at, t.platform_id),
    index("platforms_name_idx").on(sql`lower(${t.platform_name})`, t.platform_id),
    index("platforms_status_idx").on(t.status, t.platform_id),
  ],
);

export const platform_prompts = pgTable(
  "platform_prompts",
  {
    platform_id: uuid("platform_id")
      .notNull()
      .references(() => platforms.platform_id, { onDelete: "cascade" }),
    prompt_id: uuid("prompt_id")
      .notNull()
      .references(() => pedal_prompts.prompt_id, { onDelete: "cascade" }),
    assigned_at: tz("assigned_at").notNull().defaultNow(),
    is_active: boolean("is_active").notNull().default(true),
  },
  (t) => [
    primaryKey({ name: "platform_prompts_pkey", columns: [t.platform_id, t.prompt_id] }),
    // A prompt's Platform Assignments and a platform's prompts, newest first.
    index("platform_prompts_prompt_idx").on(t.prompt_id, t.assigned_at, t.platform_id),
    index("platform_prompts_platform_assigned_idx").on(t.platform_id, t.assigned_at, t.prompt_id),
  ],
);

/**
 * Versions of a prompt (beyond the spec, docs/decisions.md): every state of its title and content,
 * numbered from 1, with who wrote it and when. A table of its own: `pedal_prompts` keeps the spec's
 * columns. Version 1 is the prompt as created (written on create, or, for a prompt created before
 * versioning, just before its first change); a change of title or content adds the next number.
 */
export const prompt_versions = pgTable(
  "prompt_versions",
  {
    prompt_id: uuid("prompt_id")
      .notNull()
      .references(() => pedal_prompts.prompt_id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    prompt_title: text("prompt_title").notNull(),
    prompt_value: text("prompt_value"),
    /** The version this one restored, when it was made by Restore. */
    restored_from: integer("restored_from"),
    operator_id: text("operator_id"),
    operator_email: text("operator_email"),
    created_at: createdAt(),
    /** The reviewed change (prompt_changes) this version applied, when it went through review. */
    change_id: uuid("change_id"),
  },
  (t) => [
    primaryKey({ name: "prompt_versions_pkey", columns: [t.prompt_id, t.version] }),
    check("prompt_versions_version_check", sql`version >= 1`),
  ],
);

/**
 * The eleven tables of SPEC.md §3, the ones the console this one replaces created and that an
 * existing database already holds (`npm run db:adopt` leaves their rows and columns as they are).
 * Every other table of this file is the console's own.
 */
export const specTables = {
  customers,
  users_data,
  users_roles,
  teams,
  teams_users,
  teams_skills,
  skills,
  skill_comments,
  pedal_prompts,
  platforms,
  platform_prompts,
};

/* ---------- Operators: the provider's staff who sign in (better-auth tables) ---------- */

export const operator = pgTable("operator", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("viewer"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: tz("ban_expires"),
  /** Kept by better-auth's two-factor plugin: true once an authenticator app is confirmed. */
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  createdAt: tz("created_at").notNull().defaultNow(),
  updatedAt: tz("updated_at").notNull().defaultNow(),
});

export const operator_session = pgTable(
  "operator_session",
  {
    id: text("id").primaryKey(),
    expiresAt: tz("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: tz("created_at").notNull().defaultNow(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
  },
  (t) => [index("operator_session_user_idx").on(t.userId)],
);

export const operator_account = pgTable(
  "operator_account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: tz("access_token_expires_at"),
    refreshTokenExpiresAt: tz("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: tz("created_at").notNull().defaultNow(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("operator_account_user_idx").on(t.userId)],
);

export const operator_verification = pgTable(
  "operator_verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: tz("expires_at").notNull(),
    createdAt: tz("created_at").notNull().defaultNow(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("operator_verification_identifier_idx").on(t.identifier)],
);

/**
 * An operator's authenticator app (better-auth's two-factor plugin, docs/identity.md): the TOTP
 * secret encrypted with the auth secret, and the recovery codes as SHA-256 hashes (auth.ts).
 */
export const operator_two_factor = pgTable(
  "operator_two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: tz("locked_until"),
  },
  (t) => [index("operator_two_factor_user_idx").on(t.userId), index("operator_two_factor_secret_idx").on(t.secret)],
);

/**
 * Six-digit codes already accepted, each refused again until `expires_at` (the rest of its window,
 * one step of clock skew included): the replay guard of two-factor sign-in (docs/identity.md).
 */
export const operator_totp_used = pgTable(
  "operator_totp_used",
  {
    operator_id: text("operator_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    code_hash: text("code_hash").notNull(),
    expires_at: tz("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.operator_id, t.code_hash] })],
);

/**
 * When a session last proved its operator again (docs/identity.md, "Confirming it is you"): an
 * admin action on operators' credentials needs a sign-in or a confirmation within 10 minutes.
 * `failures`: wrong answers since; the fifth ends the session.
 */
export const operator_reauthentication = pgTable("operator_reauthentication", {
  session_id: text("session_id")
    .primaryKey()
    .references(() => operator_session.id, { onDelete: "cascade" }),
  operator_id: text("operator_id")
    .notNull()
    .references(() => operator.id, { onDelete: "cascade" }),
  confirmed_at: tz("confirmed_at"),
  failures: integer("failures").notNull().default(0),
});

/**
 * Personal API tokens (docs/identity.md): `Authorization: Bearer <token>` acts with `role`, never
 * above the operator's own. Only the token's SHA-256 is kept; `prefix` is what lists show.
 */
export const operator_api_token = pgTable(
  "operator_api_token",
  {
    token_id: uuid("token_id").primaryKey().defaultRandom(),
    operator_id: text("operator_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    token_hash: text("token_hash").notNull().unique(),
    role: text("role").notNull(),
    expires_at: tz("expires_at").notNull(),
    last_used_at: tz("last_used_at"),
    created_at: tz("created_at").notNull().defaultNow(),
    /** A delivery token: it reads only this platform's prompts (docs/prompt-review.md, "Read API"). */
    platform_id: uuid("platform_id").references(() => platforms.platform_id, { onDelete: "cascade" }),
    /**
     * When the token was revoked (by its owner, an admin, or its operator's deactivation): it is
     * refused from then on, and listed as revoked until DELETED_RETENTION_DAYS later.
     */
    revoked_at: tz("revoked_at"),
  },
  (t) => [index("operator_api_token_operator_idx").on(t.operator_id, t.created_at)],
);

/**
 * Proposed changes to prompts (docs/prompt-review.md): under PROMPT_REVIEW a change to a prompt
 * that reaches a reviewed platform waits here, and pedal_prompts / platform_prompts keep the
 * approved state until a second operator approves it. `base_*` is the live prompt the change was
 * made against (a change whose prompt moved on since is stale); the proposed fields are the
 * prompt's whole new state (`update`), or the platform of an `assign` / `unassign`.
 */
export const prompt_changes = pgTable(
  "prompt_changes",
  {
    change_id: uuid("change_id").primaryKey().defaultRandom(),
    prompt_id: uuid("prompt_id")
      .notNull()
      .references(() => pedal_prompts.prompt_id, { onDelete: "cascade" }),
    kind: text("kind", { enum: promptChangeKinds }).notNull(),
    status: text("status", { enum: promptChangeStatuses }).notNull().default("pending"),
    base_title: text("base_title").notNull(),
    base_value: text("base_value"),
    base_status: text("base_status").notNull(),
    base_skill_id: uuid("base_skill_id").notNull(),
    prompt_title: text("prompt_title"),
    prompt_value: text("prompt_value"),
    prompt_status: text("prompt_status"),
    skill_id: uuid("skill_id"),
    restored_from: integer("restored_from"),
    platform_id: uuid("platform_id").references(() => platforms.platform_id, { onDelete: "cascade" }),
    proposed_by: text("proposed_by").notNull(),
    proposed_by_email: text("proposed_by_email"),
    proposed_at: tz("proposed_at").notNull().defaultNow(),
    updated_at: tz("updated_at").notNull().defaultNow(),
    decided_by: text("decided_by"),
    decided_by_email: text("decided_by_email"),
    decided_at: tz("decided_at"),
    decision_comment: text("decision_comment"),
    applied_version: integer("applied_version"),
    /** The n-th proposal of its author's edit of the prompt: 1, then one more for each new save. */
    revision: integer("revision").notNull().default(1),
    /** The change that replaced this one (status `superseded`): a proposal never changes under its id. */
    superseded_by: uuid("superseded_by"),
  },
  (t) => [
    check("prompt_changes_kind_check", oneOf("kind", promptChangeKinds)),
    check("prompt_changes_status_check", oneOf("status", promptChangeStatuses)),
    // The Reviews queue: pending changes, oldest first; and each prompt's history, newest first.
    index("prompt_changes_pending_idx")
      .on(t.proposed_at, t.change_id)
      .where(sql`status = 'pending'`),
    index("prompt_changes_prompt_idx").on(t.prompt_id, t.proposed_at),
    index("prompt_changes_author_idx")
      .on(t.proposed_by, t.proposed_at)
      .where(sql`status = 'pending'`),
    // One pending change of each kind per author, prompt and platform: saving again updates it.
    uniqueIndex("prompt_changes_one_pending_idx")
      .on(
        t.prompt_id,
        t.proposed_by,
        t.kind,
        sql`coalesce(${t.platform_id}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      )
      .where(sql`status = 'pending'`),
  ],
);

/**
 * Saved views (docs/saved-views.md): a named state of one list (search, filters by their API
 * names, sort, visible columns in order, page size) that its owner opens again, personal or shared
 * with every operator. `list` is a `savedViewLists` key; `version` refuses a stale write.
 */
export const saved_views = pgTable(
  "saved_views",
  {
    view_id: uuid("view_id").primaryKey().defaultRandom(),
    operator_id: text("operator_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    list: text("list").notNull(),
    name: text("name").notNull(),
    shared: boolean("shared").notNull().default(false),
    state: jsonb("state").$type<Record<string, unknown>>().notNull(),
    version: integer("version").notNull().default(1),
    created_at: tz("created_at").notNull().defaultNow(),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // One name per owner and list, whatever its case.
    uniqueIndex("saved_views_owner_name_idx").on(t.operator_id, t.list, sql`lower(${t.name})`),
    // A list's shared views, by name.
    index("saved_views_shared_idx")
      .on(t.list, sql`lower(${t.name})`)
      .where(sql`shared`),
    // The views list's two other sorts (GET /api/views?sort=updated_at|created_at).
    index("saved_views_updated_idx").on(t.updated_at, t.view_id),
    index("saved_views_created_idx").on(t.created_at, t.view_id),
  ],
);

/**
 * An operator's choices for one list (docs/saved-views.md): the columns shown, in order (null:
 * the spec's columns), and the view the list opens with (null: none).
 */
export const list_preferences = pgTable(
  "list_preferences",
  {
    operator_id: text("operator_id")
      .notNull()
      .references(() => operator.id, { onDelete: "cascade" }),
    list: text("list").notNull(),
    columns: jsonb("columns").$type<string[]>(),
    hidden_columns: jsonb("hidden_columns").$type<string[]>(),
    default_view_id: uuid("default_view_id").references(() => saved_views.view_id, { onDelete: "set null" }),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "list_preferences_pkey", columns: [t.operator_id, t.list] })],
);

/** The better-auth models, keyed by the model names configured in auth.ts. */
export const authSchema = {
  operator,
  operator_session,
  operator_account,
  operator_verification,
  operator_two_factor,
};

/**
 * Who changed what: one row per mutation (and per sign-in event), written in the mutation's own
 * transaction. `changes` holds `{ before, after }` with the changed fields only. A trigger refuses
 * UPDATE and DELETE, so rows cannot be altered after the fact.
 */
export const audit_log = pgTable(
  "audit_log",
  {
    audit_id: uuid("audit_id").primaryKey().defaultRandom(),
    operator_id: text("operator_id"),
    operator_email: text("operator_email"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entity_id: text("entity_id"),
    changes: jsonb("changes").$type<{ before?: Record<string, unknown>; after?: Record<string, unknown> }>(),
    request_id: text("request_id"),
    ip_address: text("ip_address"),
    /** The personal API token the request was made with (`Authorization: Bearer`), if any. */
    api_token_id: uuid("api_token_id"),
    created_at: tz("created_at")
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entity, t.entity_id, t.created_at, t.audit_id),
    index("audit_log_created_at_idx").on(t.created_at, t.audit_id),
    index("audit_log_operator_idx").on(t.operator_id, t.created_at, t.audit_id),
    index("audit_log_action_idx").on(t.action, t.created_at, t.audit_id),
  ],
);

/**
 * Sign-in throttling counters, shared by every server copy: one row per key, `ip:<address>` or
 * `account:<email>`. `failures` count within the window that started at `window_started_at`;
 * `consecutive_failures` reset only on a successful sign-in; `locked_until` locks an account.
 */
export const auth_throttle = pgTable("auth_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  window_started_at: tz("window_started_at").notNull().defaultNow(),
  consecutive_failures: integer("consecutive_failures").notNull().default(0),
  locked_until: tz("locked_until"),
  updated_at: tz("updated_at").notNull().defaultNow(),
});

/* ---------- Maintained counters (migration 0007 keeps them by triggers) ---------- */

/**
 * Derived counts of each customer (SPEC.md §3 "Derived: user_count, team_count"), kept by
 * statement-level triggers on users_data and teams so that the customers list can show and sort by
 * them without counting a million users per request. One row per customer, created with it.
 */
export const customer_counts = pgTable(
  "customer_counts",
  {
    customer_id: uuid("customer_id")
      .primaryKey()
      .references(() => customers.customer_id, { onDelete: "cascade" }),
    user_count: integer("user_count").notNull().default(0),
    team_count: integer("team_count").notNull().default(0),
  },
  (t) => [
    index("customer_counts_user_count_idx").on(t.user_count, t.customer_id),
    index("customer_counts_team_count_idx").on(t.team_count, t.customer_id),
  ],
);

/** Derived counts of each team (SPEC.md §3): members, and active skill assignments; kept by triggers. */
export const team_counts = pgTable(
  "team_counts",
  {
    team_id: uuid("team_id")
      .primaryKey()
      .references(() => teams.team_id, { onDelete: "cascade" }),
    user_count: integer("user_count").notNull().default(0),
    skills_count: integer("skills_count").notNull().default(0),
  },
  (t) => [
    index("team_counts_user_count_idx").on(t.user_count, t.team_id),
    index("team_counts_skills_count_idx").on(t.skills_count, t.team_id),
  ],
);

/**
 * Derived count of each skill: its active team assignments (the /skills Teams column, SPEC.md §2),
 * kept by the teams_skills trigger (migration 0010) so that the list sorts by it through an index.
 */
export const skill_counts = pgTable(
  "skill_counts",
  {
    skill_id: uuid("skill_id")
      .primaryKey()
      .references(() => skills.skill_id, { onDelete: "cascade" }),
    team_count: integer("team_count").notNull().default(0),
  },
  (t) => [index("skill_counts_team_count_idx").on(t.team_count, t.skill_id)],
);

/**
 * Rows per status of a table (`entity` = table name), kept by triggers: the unfiltered summary
 * cards and totals of the lists and the dashboard read these instead of counting whole tables.
 * `users_data` also has the key `signed_in` (last_login not null), and the entity `users_signed_in`
 * counts those users per status (the users list's `signed_in` filter, migration 0008).
 */
export const status_counts = pgTable(
  "status_counts",
  {
    entity: text("entity").notNull(),
    status: text("status").notNull(),
    n: bigint("n", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "status_counts_pkey", columns: [t.entity, t.status] })],
);

/* ---------- Per-customer configuration (the console's own tables; SPEC.md §2 "/config") ---------- */

/**
 * A customer's configuration: plan, features, limits and security. A customer without a row uses
 * `configDefaults` (src/domain/config.ts). `version` counts saves (a save names the version it
 * read; another one is refused as stale); `updated_by` is the operator's email.
 */
export const customer_settings = pgTable(
  "customer_settings",
  {
    customer_id: uuid("customer_id")
      .primaryKey()
      .references(() => customers.customer_id, { onDelete: "cascade" }),
    industry: text("industry").notNull(),
    company_size: text("company_size").notNull(),
    billing_plan: text("billing_plan").notNull(),
    /** `{ feature: enabled }` for each feature of `configFeatures`. */
    features: jsonb("features").$type<Record<string, boolean>>().notNull(),
    max_users: integer("max_users").notNull(),
    max_teams: integer("max_teams").notNull(),
    storage_gb: integer("storage_gb").notNull(),
    allow_guest_users: boolean("allow_guest_users").notNull(),
    require_mfa: boolean("require_mfa").notNull(),
    session_timeout_minutes: integer("session_timeout_minutes").notNull(),
    version: integer("version").notNull().default(0),
    updated_at: tz("updated_at").notNull().defaultNow(),
    updated_by: text("updated_by"),
  },
  () => [
    check("customer_settings_limits_check", sql`max_users > 0 and max_teams > 0 and storage_gb > 0`),
    check("customer_settings_timeout_check", sql`session_timeout_minutes between 5 and 1440`),
  ],
);

/**
 * The change history of customers' configurations: one row per field a save changed, with the
 * values before and after as text (`features.<name>` for a feature), who and when. Recent changes
 * reads it newest first through its (customer_id, changed_at, change_id) index.
 */
export const customer_settings_changes = pgTable(
  "customer_settings_changes",
  {
    change_id: uuid("change_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    field: text("field").notNull(),
    old_value: text("old_value"),
    new_value: text("new_value"),
    changed_by: text("changed_by"),
    changed_at: tz("changed_at")
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("customer_settings_changes_customer_idx").on(t.customer_id, t.changed_at, t.change_id)],
);

/* ---------- Bulk actions and deleted records (the console's own tables; docs/decisions.md) ---------- */

/** States of a bulk action: running until its last batch; `cancelled` between batches on request; `interrupted` when its server stopped. */
export const bulkActionStatuses = ["running", "done", "cancelled", "failed", "interrupted"] as const;
/** What a bulk action did to one selected record. */
export const bulkOutcomes = ["changed", "skipped", "failed"] as const;

/**
 * One bulk action (issue "Daily work"): which entity and action with its parameters, the selection
 * (explicit ids, or a list's filter and search), its progress counters updated after each batch,
 * and who ran it. `cancel_requested` is read between batches; `undo_of` names the action an undo reverses.
 */
export const bulk_actions = pgTable(
  "bulk_actions",
  {
    bulk_id: uuid("bulk_id").primaryKey().defaultRandom(),
    entity: text("entity").notNull(),
    action: text("action").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull().default({}),
    selection: jsonb("selection").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: bulkActionStatuses }).notNull().default("running"),
    total: integer("total").notNull().default(0),
    processed: integer("processed").notNull().default(0),
    changed: integer("changed").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    cancel_requested: boolean("cancel_requested").notNull().default(false),
    undo_of: uuid("undo_of"),
    operator_id: text("operator_id"),
    operator_email: text("operator_email"),
    created_at: createdAt(),
    updated_at: tz("updated_at").notNull().defaultNow(),
    finished_at: tz("finished_at"),
    /**
     * The selected ids in order, fixed at the start (docs/bulk-actions.md "Restart"): a run a
     * stopped server left running resumes with those that have no report row yet.
     */
    selected_ids: uuid("selected_ids").array(),
    /** The server copy running it, and until when its lease holds unless a batch renews it. */
    lease_owner: text("lease_owner"),
    lease_until: tz("lease_until"),
    /** What its audit rows name besides the operator: request id, client IP, API token, PROMPT_REVIEW. */
    run_context: jsonb("run_context").$type<Record<string, unknown>>(),
  },
  (t) => [
    check("bulk_actions_status_check", oneOf("status", bulkActionStatuses)),
    index("bulk_actions_created_at_idx").on(t.created_at, t.bulk_id),
    index("bulk_actions_status_idx").on(t.status),
  ],
);

/**
 * The per-row report of a bulk action: each selected record's outcome, the reason when skipped or
 * failed, a label to read it by, and the values it had before (what an undo puts back).
 */
export const bulk_action_rows = pgTable(
  "bulk_action_rows",
  {
    bulk_id: uuid("bulk_id")
      .notNull()
      .references(() => bulk_actions.bulk_id, { onDelete: "cascade" }),
    row_id: text("row_id").notNull(),
    seq: integer("seq").notNull(),
    outcome: text("outcome", { enum: bulkOutcomes }).notNull(),
    reason: text("reason"),
    label: text("label"),
    before: jsonb("before").$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ name: "bulk_action_rows_pkey", columns: [t.bulk_id, t.row_id] }),
    check("bulk_action_rows_outcome_check", oneOf("outcome", bulkOutcomes)),
    // The report in selection order, and one outcome's rows.
    index("bulk_action_rows_seq_idx").on(t.bulk_id, t.seq),
    index("bulk_action_rows_outcome_idx").on(t.bulk_id, t.outcome, t.seq),
  ],
);

/**
 * Deleted records kept for Undo and restore (30 days by default, then purged): a deleted row is
 * gone from its own table, so readers of the spec's tables see it deleted, and its snapshot lives
 * here: `snapshot.row` the record as it was, `snapshot.cascade` the rows its delete removed with
 * it (`{ teams_users: [...], teams_skills: [...] }`). `entity` is a record kind (team, skill,
 * prompt, platform) or a link (team_member, skill_assignment, prompt_platform), `entity_id` its id
 * (a link's two ids joined by ":"). Restoring sets `restored_at`; the snapshot is kept for the audit.
 */
export const deleted_records = pgTable(
  "deleted_records",
  {
    deletion_id: uuid("deletion_id").primaryKey().defaultRandom(),
    entity: text("entity").notNull(),
    entity_id: text("entity_id").notNull(),
    label: text("label").notNull(),
    snapshot: jsonb("snapshot")
      .$type<{
        row: Record<string, unknown>;
        cascade?: Record<string, Array<Record<string, unknown>>>;
        /** Names of the record's cascade parts as they were, by "kind:id" (a restore's report names what cannot come back). */
        labels?: Record<string, string>;
      }>()
      .notNull(),
    bulk_id: uuid("bulk_id"),
    deleted_by_id: text("deleted_by_id"),
    deleted_by_email: text("deleted_by_email"),
    deleted_at: tz("deleted_at")
      .notNull()
      .default(sql`clock_timestamp()`),
    restored_at: tz("restored_at"),
    restored_by_email: text("restored_by_email"),
  },
  (t) => [
    // "Recently deleted", newest first, of what can still be restored; and a record's own deletions.
    index("deleted_records_open_idx")
      .on(t.deleted_at, t.deletion_id)
      .where(sql`restored_at is null`),
    index("deleted_records_entity_idx").on(t.entity, t.entity_id, t.deleted_at),
    index("deleted_records_bulk_idx").on(t.bulk_id),
  ],
);

/**
 * Directory sync (docs/onboarding.md): the SCIM 2.0 bearer tokens of a customer's identity
 * provider. Each is bound to one customer and reaches only that customer's users and teams. Only
 * the token's SHA-256 is kept (as for API tokens); two may be live at once, so that a rotation
 * needs no downtime. A revoked token is refused from `revoked_at` on.
 */
export const directory_tokens = pgTable(
  "directory_tokens",
  {
    directory_token_id: uuid("directory_token_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    token_hash: text("token_hash").notNull().unique(),
    created_by_email: text("created_by_email"),
    created_at: tz("created_at").notNull().defaultNow(),
    last_used_at: tz("last_used_at"),
    revoked_at: tz("revoked_at"),
  },
  (t) => [index("directory_tokens_customer_idx").on(t.customer_id, t.created_at)],
);

/**
 * The users a customer's directory provisioned (the spec's users_data stays as the spec has it):
 * the identity provider's `externalId`, and that the directory owns the user's name, title,
 * e-mail and status. Removed with the user.
 */
export const directory_users = pgTable(
  "directory_users",
  {
    user_id: uuid("user_id")
      .primaryKey()
      .references(() => users_data.user_id, { onDelete: "cascade" }),
    customer_id: uuid("customer_id").notNull(),
    external_id: text("external_id"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("directory_users_external_idx").on(t.customer_id, t.external_id)],
);

/** The teams a customer's directory provisioned as SCIM groups, with the group's `externalId`. */
export const directory_groups = pgTable(
  "directory_groups",
  {
    team_id: uuid("team_id")
      .primaryKey()
      .references(() => teams.team_id, { onDelete: "cascade" }),
    customer_id: uuid("customer_id").notNull(),
    external_id: text("external_id"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("directory_groups_external_idx").on(t.customer_id, t.external_id)],
);

/**
 * The SCIM requests of a customer's directory, for its state on the customer's page: when it last
 * called, what it changed today (`outcome`), and its refusals with the request that caused them.
 * Purged after DELETED_RETENTION_DAYS.
 */
export const directory_requests = pgTable(
  "directory_requests",
  {
    request_id: uuid("request_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id")
      .notNull()
      .references(() => customers.customer_id, { onDelete: "cascade" }),
    directory_token_id: uuid("directory_token_id"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    /** What it did to a record: created, updated, deactivated, deleted; null for a read or a refusal. */
    outcome: text("outcome"),
    /** A refusal's SCIM `detail` and the start of its request body. */
    error: text("error"),
    created_at: tz("created_at")
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("directory_requests_customer_idx").on(t.customer_id, t.created_at)],
);

/**
 * A CSV import of users (docs/onboarding.md "Import"): its file's facts, its mapping and counts,
 * and the bulk run that applied it. `customer_id` null: each row names its customer. Purged with
 * its rows and parts after DELETED_RETENTION_DAYS.
 */
export const imports = pgTable(
  "imports",
  {
    import_id: uuid("import_id").primaryKey().defaultRandom(),
    customer_id: uuid("customer_id").references(() => customers.customer_id, { onDelete: "cascade" }),
    file_name: text("file_name").notNull(),
    status: text("status").notNull().default("uploading"),
    bytes: integer("bytes").notNull().default(0),
    parts: integer("parts").notNull().default(0),
    row_count: integer("row_count").notNull().default(0),
    encoding: text("encoding"),
    delimiter: text("delimiter"),
    columns: jsonb("columns")
      .notNull()
      .default(sql`'[]'::jsonb`),
    mapping: jsonb("mapping"),
    create_teams: boolean("create_teams").notNull().default(false),
    counts: jsonb("counts"),
    bulk_id: uuid("bulk_id"),
    /** The teams its apply created (an undo removes those left empty). */
    created_teams: uuid("created_teams")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    operator_id: text("operator_id"),
    created_at: tz("created_at").notNull().defaultNow(),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("imports_created_at_idx").on(t.created_at),
    check("imports_status_check", sql`status in ('uploading', 'mapping', 'previewed', 'applied')`),
  ],
);

/** The raw bytes of an import's file (base64), in parts of at most 512 KiB, until the file is read. */
export const import_parts = pgTable(
  "import_parts",
  {
    import_id: uuid("import_id")
      .notNull()
      .references(() => imports.import_id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    data: text("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.import_id, t.index], name: "import_parts_pkey" })],
);

/**
 * One row of an import's file: its cells as read, the values the mapping takes from them (`problem`,
 * the first that cannot be imported), its previewed outcome, and the user it created or updated.
 */
export const import_rows = pgTable(
  "import_rows",
  {
    import_row_id: uuid("import_row_id").primaryKey().defaultRandom(),
    import_id: uuid("import_id")
      .notNull()
      .references(() => imports.import_id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    cells: jsonb("cells").notNull(),
    email: text("email"),
    first_name: text("first_name"),
    last_name: text("last_name"),
    job_title: text("job_title"),
    status: text("status"),
    roles: text("roles").array(),
    teams: text("teams").array(),
    customer_name: text("customer_name"),
    /** The row's customer: the import's, or the one its customer cell names. */
    resolved_customer_id: uuid("resolved_customer_id"),
    problem: text("problem"),
    outcome: text("outcome"),
    reason: text("reason"),
    /** The user the run created or updated from the row. */
    applied_user_id: uuid("applied_user_id"),
  },
  (t) => [
    uniqueIndex("import_rows_seq_idx").on(t.import_id, t.seq),
    index("import_rows_email_idx").on(t.import_id, t.email, t.seq),
    index("import_rows_outcome_idx").on(t.import_id, t.outcome, t.seq),
  ],
);

/** The field each operator last mapped a header to (a header as `headerKey` writes it): the next file's suggestion. */
export const import_mappings = pgTable(
  "import_mappings",
  {
    operator_id: text("operator_id").notNull(),
    header: text("header").notNull(),
    field: text("field").notNull(),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.operator_id, t.header], name: "import_mappings_pkey" })],
);
