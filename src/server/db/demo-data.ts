/**
 * Deterministic demo data: the same seed and reference time give the same rows, ids included.
 * Counts at scale 1: 25 customers, 80 teams, 600 users, 30 skills, 90 prompts, 8 platforms,
 * 300 comments, plus roles, memberships, team-skill and platform-prompt assignments.
 */
import { en, Faker } from "@faker-js/faker";
import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { queryRows, type Database } from "./client";
import * as s from "./schema";
import {
  commentStatuses,
  type CustomerStatus,
  type PromptStatus,
  type SkillType,
  userRoles,
} from "../../domain/enums";

export type DemoOptions = {
  /** Seed of the generator (default 42). */
  seed?: number;
  /** Multiplies every count (default 1); platforms grow with it too. */
  scale?: number;
  /** Reference "now" for all generated times (default: the current time). */
  now?: Date;
};

type Rows<T extends PgTable> = T["$inferInsert"][];
export type DemoData = {
  customers: Rows<typeof s.customers>;
  users_data: Rows<typeof s.users_data>;
  users_roles: Rows<typeof s.users_roles>;
  teams: Rows<typeof s.teams>;
  teams_users: Rows<typeof s.teams_users>;
  skills: Rows<typeof s.skills>;
  teams_skills: Rows<typeof s.teams_skills>;
  skill_comments: Rows<typeof s.skill_comments>;
  pedal_prompts: Rows<typeof s.pedal_prompts>;
  platforms: Rows<typeof s.platforms>;
  platform_prompts: Rows<typeof s.platform_prompts>;
};

const DAY = 86_400_000;

const skillCatalogue: Array<[string, string]> = [
  ["Contract Review", "Flags risky clauses and missing terms in supplier contracts."],
  ["Meeting Summaries", "Turns meeting transcripts into decisions, owners and next steps."],
  ["Support Triage", "Classifies incoming tickets by urgency and routes them to the right queue."],
  ["Code Review Assistant", "Reviews pull requests for bugs, style and missing tests."],
  ["Sales Email Drafting", "Drafts personalised outreach from CRM notes."],
  ["Invoice Extraction", "Reads invoices and fills the accounts-payable form."],
  ["Onboarding Guide", "Answers new starters' questions from the company handbook."],
  ["Data Cleanup", "Finds duplicates and inconsistent values in spreadsheets."],
  ["Release Notes Writer", "Writes release notes from merged changes."],
  ["Incident Postmortem", "Builds a timeline and root-cause summary from incident chat."],
  ["SQL Helper", "Writes and explains SQL queries against the warehouse."],
  ["Policy Q&A", "Answers HR and travel policy questions with citations."],
  ["Churn Signals", "Detects churn risk in account activity and support history."],
  ["Translation", "Translates customer-facing text while keeping the brand voice."],
  ["Research Digest", "Summarises papers and articles into a weekly digest."],
  ["Forecast Narrative", "Explains changes in the sales forecast in plain language."],
  ["Security Questionnaire", "Answers vendor security questionnaires from approved answers."],
  ["Job Description Writer", "Drafts inclusive job descriptions from a role brief."],
  ["Knowledge Base Gaps", "Detects questions the knowledge base does not answer."],
  ["Sentiment Monitor", "Tracks sentiment across reviews and social mentions."],
  ["Expense Audit", "Flags expense claims that break policy."],
  ["Roadmap Summaries", "Summarises roadmap changes for customer-facing teams."],
  ["Test Case Generator", "Generates test cases from user stories."],
  ["Lead Scoring", "Scores inbound leads from firmographic and behaviour data."],
  ["Accessibility Check", "Reviews pages and documents for accessibility issues."],
  ["Brand Voice Editor", "Rewrites drafts to match the brand style guide."],
  ["Log Anomaly Detection", "Spots unusual patterns in application logs."],
  ["Procurement Assistant", "Compares supplier quotes and drafts purchase requests."],
  ["Calendar Scheduling", "Finds meeting slots across time zones and books rooms."],
  ["Customer Health Report", "Builds a monthly health report per account."],
];

const platformCatalogue: Array<[string, string]> = [
  ["Slack", "Workspace chat app and slash commands"],
  ["Microsoft Teams", "Teams bot and message extensions"],
  ["Web Console", "The customer's browser workspace"],
  ["VS Code", "Editor extension for developers"],
  ["Zendesk", "Helpdesk sidebar app"],
  ["Salesforce", "CRM Lightning component"],
  ["Google Workspace", "Docs and Gmail add-on"],
  ["Public API", "REST access for customer integrations"],
];

const teamNames = [
  "Engineering", "Sales", "Customer Success", "Marketing", "Finance", "Legal", "Operations",
  "Support", "Data Science", "Product", "People", "Security", "Procurement", "Research",
];

/** Builds the rows; pure, so tests can compare two runs. */
export function generateDemoData(options: DemoOptions = {}): DemoData {
  const scale = options.scale ?? 1;
  const now = options.now ?? new Date();
  const f = new Faker({ locale: [en] });
  f.seed(options.seed ?? 42);
  const nowMs = now.getTime();
  const past = (maxDays: number, minDays = 0) =>
    new Date(nowMs - Math.floor(f.number.float({ min: minDays, max: maxDays }) * DAY));
  const after = (d: Date) => new Date(Math.min(nowMs, d.getTime() + f.number.int({ min: 0, max: 90 }) * DAY));
  const weighted = <T>(items: Array<[T, number]>): T => f.helpers.weightedArrayElement(items.map(([value, weight]) => ({ value, weight })));

  const data: DemoData = {
    customers: [], users_data: [], users_roles: [], teams: [], teams_users: [], skills: [],
    teams_skills: [], skill_comments: [], pedal_prompts: [], platforms: [], platform_prompts: [],
  };

  // Customers
  const customerDomains = new Map<string, string>();
  for (let i = 0; i < 25 * scale; i++) {
    const name = i < 25 ? f.company.name() : `${f.company.name()} ${i}`;
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "").slice(0, 18) || `customer${i}`;
    const domain = `${slug}${i >= 25 ? i : ""}.${f.helpers.arrayElement(["com", "io", "co", "net"])}`;
    const created = past(730, 30);
    const status = weighted<CustomerStatus>([["active", 70], ["trial", 18], ["inactive", 12]]);
    const domains = f.number.int({ min: 0, max: 9 });
    const valid_domains = domains < 3 ? null : domains < 7 ? domain : `${domain}\n${slug}-corp.com`;
    const customer_id = f.string.uuid();
    customerDomains.set(customer_id, domain);
    data.customers.push({ customer_id, customer_name: name, valid_domains, status, created_at: created, updated_at: after(created) });
  }

  // Teams: at least one per customer, the rest spread at random
  const teamsByCustomer = new Map<string, string[]>();
  for (let i = 0; i < 80 * scale; i++) {
    const customer = i < data.customers.length ? data.customers[i] : f.helpers.arrayElement(data.customers);
    const list = teamsByCustomer.get(customer.customer_id!) ?? [];
    // Team names are unique within a customer: the first unused name, counting up past the list.
    const base = teamNames[(i + list.length) % teamNames.length];
    const taken = new Set(data.teams.filter((t) => t.customer_id === customer.customer_id).map((t) => t.team_name));
    const team_name = [base, ...teamNames].find((n) => !taken.has(n)) ?? `${base} ${list.length + 1}`;
    const created = new Date(Math.max(customer.created_at!.getTime(), past(600).getTime()));
    const team_id = f.string.uuid();
    list.push(team_id);
    teamsByCustomer.set(customer.customer_id!, list);
    data.teams.push({
      team_id, customer_id: customer.customer_id!, team_name,
      status: weighted([["active", 82], ["inactive", 18]]), created_at: created, updated_at: after(created),
    });
  }
  const teamCustomer = new Map(data.teams.map((t) => [t.team_id!, t.customer_id]));

  // Users with 0 to 3 roles and 0 to 3 memberships in their customer's teams
  const usersByCustomer = new Map<string, string[]>();
  for (let i = 0; i < 600 * scale; i++) {
    const customer = f.helpers.arrayElement(data.customers);
    const first_name = f.person.firstName();
    const last_name = f.person.lastName();
    const email = `${first_name}.${last_name}.${i}@${customerDomains.get(customer.customer_id!)}`.toLowerCase().replace(/[^a-z0-9.@-]/g, "");
    const created = new Date(Math.max(customer.created_at!.getTime(), past(500).getTime()));
    const loginKind = f.number.int({ min: 0, max: 99 });
    const drawn = loginKind < 15 ? null : loginKind < 25 ? new Date(nowMs - f.number.int({ min: 60_000, max: DAY - 60_000 })) : past(60, 1);
    // Nobody signs in before their account exists.
    const last_login = drawn && drawn < created ? new Date(f.number.int({ min: created.getTime(), max: nowMs })) : drawn;
    const user_id = f.string.uuid();
    const noName = f.number.int({ min: 0, max: 19 }) === 0;
    data.users_data.push({
      user_id, customer_id: customer.customer_id!, email,
      first_name: noName ? null : first_name, last_name: noName ? null : last_name,
      job_title: f.number.int({ min: 0, max: 9 }) === 0 ? null : f.person.jobTitle(),
      status: weighted([["active", 75], ["inactive", 15], ["pending", 10]]),
      last_login, created_at: created, updated_at: after(created),
    });
    const roleCount = weighted([[0, 10], [1, 60], [2, 20], [3, 10]]);
    for (const role of f.helpers.arrayElements(userRoles, roleCount)) data.users_roles.push({ user_id, role });
    const teamsOfCustomer = teamsByCustomer.get(customer.customer_id!) ?? [];
    for (const team_id of f.helpers.arrayElements(teamsOfCustomer, Math.min(teamsOfCustomer.length, f.number.int({ min: 0, max: 3 })))) {
      data.teams_users.push({ team_id, user_id, customer_id: customer.customer_id! });
    }
    const list = usersByCustomer.get(customer.customer_id!) ?? [];
    list.push(user_id);
    usersByCustomer.set(customer.customer_id!, list);
  }

  // Skills
  for (let i = 0; i < 30 * scale; i++) {
    const [name, description] = skillCatalogue[i % skillCatalogue.length];
    const created = past(400, 10);
    data.skills.push({
      skill_id: f.string.uuid(),
      skill_name: i < skillCatalogue.length ? name : `${name} ${Math.floor(i / skillCatalogue.length) + 1}`,
      skill_description: f.number.int({ min: 0, max: 9 }) === 0 ? null : description,
      type: weighted<SkillType>([["manual", 45], ["agent", 35], ["detected", 20]]),
      is_global: f.number.int({ min: 0, max: 3 }) === 0,
      status: weighted([["active", 80], ["inactive", 20]]),
      created_at: created, updated_at: after(created),
    });
  }

  // Team-skill assignments: 2 to 8 skills a team, mostly active
  for (const team of data.teams) {
    for (const skill of f.helpers.arrayElements(data.skills, f.number.int({ min: 2, max: 8 }))) {
      const assigned_at = past(300);
      data.teams_skills.push({
        team_id: team.team_id!, skill_id: skill.skill_id!, customer_id: teamCustomer.get(team.team_id!)!,
        status: weighted([["active", 85], ["inactive", 15]]), assigned_at,
        score: f.number.int({ min: 0, max: 4 }) === 0 ? null : f.number.int({ min: 35, max: 100 }),
        last_used: f.number.int({ min: 0, max: 4 }) === 0 ? null : new Date(f.number.int({ min: assigned_at.getTime(), max: nowMs })),
      });
    }
  }

  // Platforms
  for (let i = 0; i < 8 * scale; i++) {
    const [name, description] = platformCatalogue[i % platformCatalogue.length];
    const created = past(500, 30);
    data.platforms.push({
      platform_id: f.string.uuid(),
      platform_name: i < platformCatalogue.length ? name : `${name} ${Math.floor(i / platformCatalogue.length) + 1}`,
      platform_description: description,
      status: i < 5 ? "active" : i === 5 ? "draft" : i === 6 ? "inactive" : weighted([["active", 6], ["inactive", 2], ["draft", 2]]),
      created_at: created, updated_at: after(created),
    });
  }

  // Prompts across statuses, each on 0 to 3 platforms
  const verbs = ["Summarise", "Draft", "Classify", "Review", "Explain", "Extract", "Rewrite", "Check"];
  for (let i = 0; i < 90 * scale; i++) {
    const skill = f.helpers.arrayElement(data.skills);
    const created = new Date(Math.max(skill.created_at!.getTime(), past(300).getTime()));
    const prompt_id = f.string.uuid();
    data.pedal_prompts.push({
      prompt_id,
      prompt_title: `${f.helpers.arrayElement(verbs)} ${f.word.noun()} for ${skill.skill_name}`,
      prompt_value: f.number.int({ min: 0, max: 9 }) === 0 ? null
        : `You are an assistant for ${skill.skill_name!.toLowerCase()}.\n${f.lorem.sentences({ min: 2, max: 5 })}\nAnswer in ${f.helpers.arrayElement(["bullet points", "a short paragraph", "a table", "JSON"])}.`,
      skill_id: skill.skill_id!,
      status: weighted<PromptStatus>([["active", 65], ["inactive", 15], ["draft", 20]]),
      created_at: created, updated_at: after(created),
    });
    for (const platform of f.helpers.arrayElements(data.platforms, f.number.int({ min: 0, max: 3 }))) {
      data.platform_prompts.push({
        platform_id: platform.platform_id!, prompt_id,
        assigned_at: new Date(f.number.int({ min: created.getTime(), max: nowMs })),
        is_active: f.number.int({ min: 0, max: 5 }) !== 0,
      });
    }
  }

  // Comments by users on skills, in all four statuses
  for (let i = 0; i < 300 * scale; i++) {
    const user = f.helpers.arrayElement(data.users_data);
    const skill = f.helpers.arrayElement(data.skills);
    const created = past(180);
    data.skill_comments.push({
      comment_id: f.string.uuid(), customer_id: user.customer_id, skill_id: skill.skill_id!, user_id: user.user_id!,
      comment_value: f.helpers.arrayElement([
        `${skill.skill_name} saved our team hours this week.`,
        `Could ${skill.skill_name} support more languages?`,
        "The output was too long for our use case.",
        "Works well, but the tone is sometimes too formal.",
        "It missed an important detail in the last run.",
        `We would like ${skill.skill_name} in ${f.helpers.arrayElement(platformCatalogue)[0]} too.`,
      ]) + (f.datatype.boolean() ? ` ${f.lorem.sentence()}` : ""),
      status: f.helpers.arrayElement(commentStatuses),
      created_at: created, updated_at: after(created),
    });
  }
  return data;
}

/** Insert order respecting foreign keys. */
const insertOrder = [
  ["customers", s.customers], ["teams", s.teams], ["users_data", s.users_data], ["users_roles", s.users_roles],
  ["teams_users", s.teams_users], ["skills", s.skills], ["teams_skills", s.teams_skills], ["platforms", s.platforms],
  ["pedal_prompts", s.pedal_prompts], ["platform_prompts", s.platform_prompts], ["skill_comments", s.skill_comments],
] as const;

/**
 * Inserts demo data in one transaction, in batches of at most 500 rows.
 * @returns the row count of each table written.
 */
export async function loadDemoData(db: Database, options: DemoOptions = {}): Promise<Record<string, number>> {
  const data = generateDemoData(options);
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for (const [name, table] of insertOrder) {
      const rows = data[name] as Array<Record<string, unknown>>;
      for (let i = 0; i < rows.length; i += 500) {
        await tx.insert(table).values(rows.slice(i, i + 500) as never);
      }
      counts[name] = rows.length;
    }
  });
  return counts;
}

/** True when the console's own tables hold no customer yet (demo data may be loaded). */
export async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from customers`);
  return Number(row.n) === 0;
}
