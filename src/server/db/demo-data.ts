/**
 * Deterministic demo data: the same seed and reference time give the same rows, ids included.
 * Counts at scale 1: 25 customers, 80 teams, 600 users, 30 skills, 90 prompts, 8 platforms,
 * 300 comments, plus roles, memberships, team-skill and platform-prompt assignments; every count
 * grows linearly with `scale` (scale 1,667 is about 1,000,000 users).
 *
 * The rows are produced as a stream (`demoRows`) in foreign-key order, generation is linear in
 * the counts, and only compact indexes (ids as 16-byte buffers, parents as integers) are kept
 * between tables, so a million users fit in a few dozen megabytes. `loadDemoData` writes the
 * stream with COPY (bulk-load.ts).
 */
import { en, Faker } from "@faker-js/faker";
import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { bulkLoad, type BulkProgress } from "./bulk-load";
import { queryRows, type Database } from "./client";
import * as s from "./schema";
import { commentStatuses, type CustomerStatus, type PromptStatus, type SkillType, userRoles } from "../../domain/enums";
import { configSamples } from "../../domain/config";
import { importMsg } from "../../domain/import-messages";

export type DemoOptions = {
  /** Seed of the generator (default 42). */
  seed?: number;
  /** Multiplies every count (default 1); platforms grow with it too. */
  scale?: number;
  /** Reference "now" for all generated times (default: the current time). */
  now?: Date;
};

/** Options of `loadDemoData` beyond the data's own. */
export type LoadOptions = DemoOptions & {
  /**
   * "once": everything in one transaction (the default up to scale 10: all or nothing);
   * "batches": each batch of rows is committed as it is written (large scales: a stop keeps what
   * was written, and `clearDemoData` removes it).
   */
  commit?: "once" | "batches";
  /** Rows per COPY batch (default 50,000 on PostgreSQL, 20,000 on PGlite). */
  batchRows?: number;
  /** Called after every batch and when a table is complete. */
  onProgress?: (progress: BulkProgress) => void;
  /** Stops after the batch in progress; loadDemoData then rejects with the signal's reason. */
  signal?: AbortSignal;
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
  "Engineering",
  "Sales",
  "Customer Success",
  "Marketing",
  "Finance",
  "Legal",
  "Operations",
  "Support",
  "Data Science",
  "Product",
  "People",
  "Security",
  "Procurement",
  "Research",
];

/** The eleven tables in foreign-key order: the order `demoRows` yields them and loads them. */
export const demoTables = [
  "customers",
  "teams",
  "users_data",
  "users_roles",
  "teams_users",
  "skills",
  "teams_skills",
  "platforms",
  "pedal_prompts",
  "platform_prompts",
  "skill_comments",
] as const;
export type DemoTable = (typeof demoTables)[number];
/** One generated row and the table it belongs to. */
export type DemoRow = { [K in DemoTable]: { table: K; row: DemoData[K][number] } }[DemoTable];

/**
 * Rows each table gets at `scale`: exact for the entity tables, the expected value for the join
 * tables (users_roles 1.3 a user, teams_users about 1.5 a user, teams_skills 5 a team,
 * platform_prompts 1.5 a prompt). Progress bars use it.
 */
export function expectedCounts(scale = 1): Record<DemoTable, number> {
  const users = 600 * scale;
  const teams = 80 * scale;
  const prompts = 90 * scale;
  return {
    customers: 25 * scale,
    teams,
    users_data: users,
    users_roles: Math.round(users * 1.3),
    teams_users: Math.round(users * 1.45),
    skills: 30 * scale,
    teams_skills: teams * 5,
    platforms: 8 * scale,
    pedal_prompts: prompts,
    platform_prompts: Math.round(prompts * 1.5),
    skill_comments: 300 * scale,
  };
}

/** A growable array of 32-bit integers (join rows kept as parent indexes until written). */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

/** UUIDs kept as 16 bytes each, by position. */
class UuidList {
  bytes: Buffer;
  constructor(count: number) {
    this.bytes = Buffer.alloc(Math.max(1, count) * 16);
  }
  set(index: number, uuid: string) {
    this.bytes.write(uuid.replaceAll("-", ""), index * 16, 16, "hex");
  }
  get(index: number): string {
    const h = this.bytes.toString("hex", index * 16, index * 16 + 16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

/**
 * Rows of the demo data, one at a time, in `demoTables` order. Memory stays proportional to the
 * entity counts (a few bytes each), never to the rows: join rows found while generating users and
 * prompts are kept as integer pairs and yielded after their parents.
 */
export function* demoRows(options: DemoOptions = {}): Generator<DemoRow> {
  const scale = options.scale ?? 1;
  const now = options.now ?? new Date();
  const f = new Faker({ locale: [en] });
  f.seed(options.seed ?? 42);
  const nowMs = now.getTime();
  const past = (maxDays: number, minDays = 0) =>
    new Date(nowMs - Math.floor(f.number.float({ min: minDays, max: maxDays }) * DAY));
  const after = (d: Date) => new Date(Math.min(nowMs, d.getTime() + f.number.int({ min: 0, max: 90 }) * DAY));
  const weighted = <T>(items: Array<[T, number]>): T =>
    f.helpers.weightedArrayElement(items.map(([value, weight]) => ({ value, weight })));
  /** Index of a random element of a list of `length` (draws exactly as faker's arrayElement). */
  const pick = (length: number) => (length > 1 ? f.number.int({ max: length - 1 }) : 0);
  /**
   * `count` distinct indexes of a list of `length`, drawn exactly as faker's arrayElements (a
   * partial Fisher-Yates shuffle) but in O(count): faker copies the whole list on every call.
   */
  const sample = (length: number, count: number): number[] => {
    if (length === 0 || count <= 0) return [];
    const swapped = new Map<number, number>();
    const at = (i: number) => swapped.get(i) ?? i;
    if (count >= length) {
      for (let t = length - 1; t > 0; --t) {
        const n = f.number.int(t);
        const vt = at(t);
        swapped.set(t, at(n));
        swapped.set(n, vt);
      }
      return Array.from({ length }, (_, i) => at(i));
    }
    const first = length - count;
    for (let i = length - 1; i >= first; i--) {
      const j = f.number.int(i);
      const vi = at(i);
      swapped.set(i, at(j));
      swapped.set(j, vi);
    }
    return Array.from({ length: count }, (_, k) => at(first + k));
  };

  // Customers: kept whole (25 a scale unit), users and teams need their domain and creation time.
  const customerCount = 25 * scale;
  const customers: Array<{ customer_id: string; created: Date; domain: string }> = [];
  for (let i = 0; i < customerCount; i++) {
    const name = i < 25 ? f.company.name() : `${f.company.name()} ${i}`;
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "")
        .slice(0, 18) || `customer${i}`;
    const domain = `${slug}${i >= 25 ? i : ""}.${f.helpers.arrayElement(["com", "io", "co", "net"])}`;
    const created = past(730, 30);
    const status = weighted<CustomerStatus>([
      ["active", 70],
      ["trial", 18],
      ["inactive", 12],
    ]);
    const domains = f.number.int({ min: 0, max: 9 });
    const valid_domains = domains < 3 ? null : domains < 7 ? domain : `${domain}\n${slug}-corp.com`;
    const customer_id = f.string.uuid();
    customers.push({ customer_id, created, domain });
    yield {
      table: "customers",
      row: { customer_id, customer_name: name, valid_domains, status, created_at: created, updated_at: after(created) },
    };
  }

  // Teams: at least one per customer, the rest spread at random.
  const teamCount = 80 * scale;
  const teamIds = new UuidList(teamCount);
  const teamCustomer = new Int32Array(teamCount);
  const teamsOfCustomer: number[][] = Array.from({ length: customerCount }, () => []);
  const namesOfCustomer: Array<Set<string>> = Array.from({ length: customerCount }, () => new Set());
  for (let i = 0; i < teamCount; i++) {
    const c = i < customerCount ? i : pick(customerCount);
    const customer = customers[c];
    const list = teamsOfCustomer[c];
    // Team names are unique within a customer: the first unused name, counting up past the list.
    const base = teamNames[(i + list.length) % teamNames.length];
    const taken = namesOfCustomer[c];
    const team_name = [base, ...teamNames].find((n) => !taken.has(n)) ?? `${base} ${list.length + 1}`;
    taken.add(team_name);
    const created = new Date(Math.max(customer.created.getTime(), past(600).getTime()));
    const team_id = f.string.uuid();
    list.push(i);
    teamIds.set(i, team_id);
    teamCustomer[i] = c;
    yield {
      table: "teams",
      row: {
        team_id,
        customer_id: customer.customer_id,
        team_name,
        status: weighted([
          ["active", 78],
          ["inactive", 15],
          ["pending", 7],
        ]),
        created_at: created,
        updated_at: after(created),
      },
    };
  }
  namesOfCustomer.length = 0;

  // Users with 0 to 3 roles and 0 to 3 memberships in their customer's teams.
  const userCount = 600 * scale;
  const userIds = new UuidList(userCount);
  const userCustomer = new Int32Array(userCount);
  const roles = new IntList(); // user index * 4 + role index
  const memberships = new IntList(); // pairs: team index, user index
  for (let i = 0; i < userCount; i++) {
    const c = pick(customerCount);
    const customer = customers[c];
    const first_name = f.person.firstName();
    const last_name = f.person.lastName();
    const email = `${first_name}.${last_name}.${i}@${customer.domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, "");
    const created = new Date(Math.max(customer.created.getTime(), past(500).getTime()));
    const loginKind = f.number.int({ min: 0, max: 99 });
    const drawn =
      loginKind < 15
        ? null
        : loginKind < 25
          ? new Date(nowMs - f.number.int({ min: 60_000, max: DAY - 60_000 }))
          : past(60, 1);
    // Nobody signs in before their account exists.
    const last_login =
      drawn && drawn < created ? new Date(f.number.int({ min: created.getTime(), max: nowMs })) : drawn;
    const user_id = f.string.uuid();
    const noName = f.number.int({ min: 0, max: 19 }) === 0;
    userIds.set(i, user_id);
    userCustomer[i] = c;
    yield {
      table: "users_data",
      row: {
        user_id,
        customer_id: customer.customer_id,
        email,
        first_name: noName ? null : first_name,
        last_name: noName ? null : last_name,
        job_title: f.number.int({ min: 0, max: 9 }) === 0 ? null : f.person.jobTitle(),
        status: weighted([
          ["active", 75],
          ["inactive", 15],
          ["pending", 10],
        ]),
        last_login,
        created_at: created,
        updated_at: after(created),
      },
    };
    const roleCount = weighted([
      [0, 10],
      [1, 60],
      [2, 20],
      [3, 10],
    ]);
    for (const r of sample(userRoles.length, roleCount)) roles.push(i * 4 + r);
    const teams = teamsOfCustomer[c];
    for (const k of sample(teams.length, Math.min(teams.length, f.number.int({ min: 0, max: 3 })))) {
      memberships.push(teams[k]);
      memberships.push(i);
    }
  }
  for (let k = 0; k < roles.length; k++) {
    const v = roles.data[k];
    yield { table: "users_roles", row: { user_id: userIds.get(v >> 2), role: userRoles[v & 3] } };
  }
  for (let k = 0; k < memberships.length; k += 2) {
    const team = memberships.data[k];
    yield {
      table: "teams_users",
      row: {
        team_id: teamIds.get(team),
        user_id: userIds.get(memberships.data[k + 1]),
        customer_id: customers[teamCustomer[team]].customer_id,
      },
    };
  }
  roles.data = new Int32Array(0);
  memberships.data = new Int32Array(0);
  teamsOfCustomer.length = 0;

  // Skills: kept whole (30 a scale unit), prompts and comments use their names.
  const skillCount = 30 * scale;
  const skills: Array<{ skill_id: string; skill_name: string; created: Date }> = [];
  for (let i = 0; i < skillCount; i++) {
    const [name, description] = skillCatalogue[i % skillCatalogue.length];
    const created = past(400, 10);
    const row: DemoData["skills"][number] & { skill_id: string; skill_name: string } = {
      skill_id: f.string.uuid(),
      skill_name: i < skillCatalogue.length ? name : `${name} ${Math.floor(i / skillCatalogue.length) + 1}`,
      skill_description: f.number.int({ min: 0, max: 9 }) === 0 ? null : description,
      type: weighted<SkillType>([
        ["manual", 45],
        ["agent", 35],
        ["detected", 20],
      ]),
      is_global: f.number.int({ min: 0, max: 3 }) === 0,
      status: weighted([
        ["active", 80],
        ["inactive", 20],
      ]),
      created_at: created,
      updated_at: after(created),
    };
    skills.push({ skill_id: row.skill_id, skill_name: row.skill_name, created });
    yield { table: "skills", row };
  }

  // Team-skill assignments: 2 to 8 skills a team, mostly active.
  for (let t = 0; t < teamCount; t++) {
    const team_id = teamIds.get(t);
    const customer_id = customers[teamCustomer[t]].customer_id;
    for (const k of sample(skillCount, f.number.int({ min: 2, max: 8 }))) {
      const assigned_at = past(300);
      yield {
        table: "teams_skills",
        row: {
          team_id,
          skill_id: skills[k].skill_id,
          customer_id,
          status: weighted([
            ["active", 85],
            ["inactive", 15],
          ]),
          assigned_at,
          score: f.number.int({ min: 0, max: 4 }) === 0 ? null : f.number.int({ min: 35, max: 100 }),
          last_used:
            f.number.int({ min: 0, max: 4 }) === 0
              ? null
              : new Date(f.number.int({ min: assigned_at.getTime(), max: nowMs })),
        },
      };
    }
  }

  // Platforms
  const platformCount = 8 * scale;
  const platformIds = new UuidList(platformCount);
  for (let i = 0; i < platformCount; i++) {
    const [name, description] = platformCatalogue[i % platformCatalogue.length];
    const created = past(500, 30);
    const platform_id = f.string.uuid();
    platformIds.set(i, platform_id);
    yield {
      table: "platforms",
      row: {
        platform_id,
        platform_name: i < platformCatalogue.length ? name : `${name} ${Math.floor(i / platformCatalogue.length) + 1}`,
        platform_description: description,
        status:
          i < 5
            ? "active"
            : i === 5
              ? "draft"
              : i === 6
                ? "inactive"
                : weighted([
                    ["active", 6],
                    ["inactive", 2],
                    ["draft", 2],
                  ]),
        created_at: created,
        updated_at: after(created),
        // Written by COPY, which takes no column default: the reviewed ones are marked after the load (seedReviewSamples).
        needs_review: false,
        provided_variables: null,
      },
    };
  }

  // Prompts across statuses, each on 0 to 3 platforms (assignments yielded after the prompts).
  const verbs = ["Summarise", "Draft", "Classify", "Review", "Explain", "Extract", "Rewrite", "Check"];
  const promptCount = 90 * scale;
  const promptIds = new UuidList(promptCount);
  const assignments = new IntList(); // triples: prompt index, platform index, active (1/0)
  const assignedAt: number[] = [];
  for (let i = 0; i < promptCount; i++) {
    const skill = skills[pick(skillCount)];
    const created = new Date(Math.max(skill.created.getTime(), past(300).getTime()));
    const prompt_id = f.string.uuid();
    promptIds.set(i, prompt_id);
    yield {
      table: "pedal_prompts",
      row: {
        prompt_id,
        prompt_title: `${f.helpers.arrayElement(verbs)} ${f.word.noun()} for ${skill.skill_name}`,
        prompt_value:
          f.number.int({ min: 0, max: 9 }) === 0
            ? null
            : `You are an assistant for ${skill.skill_name.toLowerCase()}.\n${f.lorem.sentences({ min: 2, max: 5 })}\nAnswer in ${f.helpers.arrayElement(["bullet points", "a short paragraph", "a table", "JSON"])}.`,
        skill_id: skill.skill_id,
        status: weighted<PromptStatus>([
          ["active", 65],
          ["inactive", 15],
          ["draft", 20],
        ]),
        created_at: created,
        updated_at: after(created),
      },
    };
    for (const p of sample(platformCount, f.number.int({ min: 0, max: 3 }))) {
      assignedAt.push(f.number.int({ min: created.getTime(), max: nowMs }));
      assignments.push(i);
      assignments.push(p);
      assignments.push(f.number.int({ min: 0, max: 5 }) !== 0 ? 1 : 0);
    }
  }
  for (let k = 0; k < assignments.length; k += 3) {
    yield {
      table: "platform_prompts",
      row: {
        platform_id: platformIds.get(assignments.data[k + 1]),
        prompt_id: promptIds.get(assignments.data[k]),
        assigned_at: new Date(assignedAt[k / 3]),
        is_active: assignments.data[k + 2] === 1,
      },
    };
  }
  assignedAt.length = 0;

  // Comments by users on skills, in all four statuses.
  for (let i = 0; i < 300 * scale; i++) {
    const u = pick(userCount);
    const skill = skills[pick(skillCount)];
    const created = past(180);
    yield {
      table: "skill_comments",
      row: {
        comment_id: f.string.uuid(),
        customer_id: customers[userCustomer[u]].customer_id,
        skill_id: skill.skill_id,
        user_id: userIds.get(u),
        comment_value:
          f.helpers.arrayElement([
            `${skill.skill_name} saved our team hours this week.`,
            `Could ${skill.skill_name} support more languages?`,
            "The output was too long for our use case.",
            "Works well, but the tone is sometimes too formal.",
            "It missed an important detail in the last run.",
            `We would like ${skill.skill_name} in ${f.helpers.arrayElement(platformCatalogue)[0]} too.`,
          ]) + (f.datatype.boolean() ? ` ${f.lorem.sentence()}` : ""),
        status: f.helpers.arrayElement(commentStatuses),
        created_at: created,
        updated_at: after(created),
      },
    };
  }
}

/** The whole demo data set in memory (tests and small scales); `demoRows` streams it. */
export function generateDemoData(options: DemoOptions = {}): DemoData {
  // fromEntries types its keys as any string; demoTables names exactly DemoData's tables.
  const data = Object.fromEntries(demoTables.map((t) => [t, []])) as unknown as DemoData;
  for (const { table, row } of demoRows(options)) (data[table] as unknown[]).push(row);
  return data;
}

/**
 * Writes the demo data with COPY, table by table in foreign-key order, in batches. Up to scale 10
 * everything is one transaction by default (all or nothing, as at first start); above, each batch
 * commits as it is written (see `LoadOptions.commit`), and the tables are analyzed at the end.
 * @returns the row count of each table written.
 * @throws the signal's reason when `signal` aborts (after the batch in progress is committed).
 */
export async function loadDemoData(db: Database, options: LoadOptions = {}): Promise<Record<string, number>> {
  const scale = options.scale ?? 1;
  const commit = options.commit ?? (scale <= 10 ? "once" : "batches");
  const sampleCustomers: string[] = [];
  const rows = (function* () {
    for (const item of demoRows(options)) {
      if (item.table === "customers" && sampleCustomers.length < configSamples.length)
        sampleCustomers.push(item.row.customer_id!);
      yield item;
    }
  })();
  const counts = await bulkLoad(db, rows as Iterable<{ table: string; row: Record<string, unknown> }>, {
    commit,
    batchRows: options.batchRows,
    onProgress: options.onProgress,
    signal: options.signal,
    expected: expectedCounts(scale),
    tables: Object.fromEntries(demoTables.map((t) => [t, s[t]])),
  });
  await seedConfigSamples(db, sampleCustomers);
  await seedReviewSamples(db, options.now ?? new Date());
  await seedImportSample(db);
  return counts;
}

/**
 * SPEC.md §9 sample configuration values: the first two demo customers get the spec's two sample
 * configurations (`configSamples`); every other customer keeps the defaults (no row).
 */
async function seedConfigSamples(db: Database, customerIds: string[]): Promise<void> {
  for (const [i, customer_id] of customerIds.entries()) {
    await db
      .insert(s.customer_settings)
      .values({ customer_id, ...configSamples[i], version: 1 })
      .onConflictDoNothing();
  }
}

/** The platforms marked "Changes need review" in the demo, by name, with the variables each provides. */
const reviewedPlatforms: Array<{ name: string; variables: string[] }> = [
  { name: "Slack", variables: ["user_name", "channel", "locale"] },
  { name: "Zendesk", variables: ["user_name", "ticket_id", "locale"] },
];

/** The demo operators who propose changes, by email (database.ts creates them). */
const demoAuthorEmails = ["editor@pedal.example", "admin@pedal.example"];
/**
 * The author of every demo proposal when fewer than two demo operators exist yet (a first start
 * loads the data before it creates them, and an operator's id is only known once it exists).
 */
const standInAuthor = { id: "demo-editor", email: "demo.editor@pedal.example" };

/**
 * docs/prompt-review.md in the demo: two platforms marked "Changes need review" with the variables
 * they provide, and four pending proposals on prompts actively assigned to them (two edits, an
 * archive and an unassignment) by the demo editor and the demo admin when both exist, else all by
 * a stand-in "demo editor". Written after the generated rows and drawing nothing from the
 * generator, so every generated value stays as it was.
 */
async function seedReviewSamples(db: Database, now: Date): Promise<void> {
  const found = (
    await Promise.all(
      demoAuthorEmails.map((email) =>
        queryRows<{ id: string; email: string }>(db, sql`select id, email from operator where email = ${email}`),
      ),
    )
  ).flat();
  const authors = found.length >= 2 ? found : [standInAuthor, standInAuthor];
  const platformIds: string[] = [];
  for (const p of reviewedPlatforms) {
    const [row] = await queryRows<{ platform_id: string }>(
      db,
      sql`update platforms set needs_review = true, provided_variables = ${sql.raw(
        `array[${p.variables.map((v) => `'${v}'`).join(", ")}]::text[]`,
      )}
        where platform_id = (select platform_id from platforms where platform_name = ${p.name} order by created_at, platform_id limit 1)
        returning platform_id`,
    );
    if (row) platformIds.push(row.platform_id);
  }
  if (platformIds.length === 0) return;
  // Active prompts with content on the reviewed platforms, each once, in a stable order.
  const prompts = await queryRows<{
    prompt_id: string;
    prompt_title: string;
    prompt_value: string;
    status: string;
    skill_id: string;
    platform_id: string;
  }>(
    db,
    sql`select distinct on (p.prompt_id) p.prompt_id, p.prompt_title, p.prompt_value, p.status, p.skill_id, pp.platform_id
        from pedal_prompts p join platform_prompts pp on pp.prompt_id = p.prompt_id and pp.is_active
        where pp.platform_id in (${sql.join(
          platformIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and p.status = 'active' and p.prompt_value is not null
        order by p.prompt_id, pp.platform_id`,
  );
  prompts.sort((a, b) => a.prompt_title.localeCompare(b.prompt_title) || a.prompt_id.localeCompare(b.prompt_id));
  const hours = (h: number) => new Date(now.getTime() - h * 3_600_000);
  const proposals = [
    {
      kind: "update" as const,
      author: authors[0],
      at: hours(50),
      edit: (p: (typeof prompts)[number]) => ({
        prompt_title: p.prompt_title,
        prompt_value: p.prompt_value.replace("\n", "\nAddress {{user_name}} by name and reply in {{locale}}.\n"),
        prompt_status: p.status,
      }),
    },
    {
      kind: "update" as const,
      author: authors[0],
      at: hours(26),
      edit: (p: (typeof prompts)[number]) => ({
        prompt_title: `${p.prompt_title} (short answers)`,
        prompt_value: p.prompt_value.replace(/\nAnswer in [^\n]*$/, "\nAnswer in at most three sentences."),
        prompt_status: p.status,
      }),
    },
    {
      kind: "update" as const,
      author: authors[1],
      at: hours(5),
      edit: (p: (typeof prompts)[number]) => ({
        prompt_title: p.prompt_title,
        prompt_value: p.prompt_value,
        prompt_status: "inactive",
      }),
    },
    { kind: "unassign" as const, author: authors[0], at: hours(2), edit: undefined },
  ];
  for (const [i, proposal] of proposals.entries()) {
    const p = prompts[i];
    if (!p) break;
    const edit = proposal.edit?.(p);
    await db.insert(s.prompt_changes).values({
      prompt_id: p.prompt_id,
      kind: proposal.kind,
      base_title: p.prompt_title,
      base_value: p.prompt_value,
      base_status: p.status,
      base_skill_id: p.skill_id,
      ...(edit ? { ...edit, skill_id: p.skill_id } : { platform_id: p.platform_id }),
      proposed_by: proposal.author.id,
      proposed_by_email: proposal.author.email,
      proposed_at: proposal.at,
      updated_at: proposal.at,
    });
  }
}

/**
 * Empties the eleven demo tables (after an interrupted load into an empty database) and, through
 * CASCADE, the console's own tables keyed by their rows (list counters, per-customer settings);
 * the truncate triggers then recompute the counters. Leaves operators, sessions and the audit log
 * alone.
 */
export async function clearDemoData(db: Database): Promise<void> {
  await db.execute(sql.raw(`truncate ${demoTables.join(", ")} cascade`));
}

/** True when the console's own tables hold no customer yet (demo data may be loaded). */
export async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from customers`);
  return Number(row.n) === 0;
}

/**
 * A sample import (docs/onboarding.md "Import"), previewed and not applied: the first customer's
 * roster with its first 20 users as they are (unchanged), three new people of its first valid
 * domain and a row whose email cannot be read. GET /api/imports/{importId} and its rows show it.
 */
async function seedImportSample(db: Database): Promise<void> {
  const [customer] = await queryRows<{ customer_id: string; domain: string }>(
    db,
    sql`select customer_id::text, coalesce(nullif((regexp_split_to_array(trim(coalesce(valid_domains, '')), '[\s,;]+'))[1], ''),
      'example.com') as domain from customers where status = 'active' order by created_at, customer_id limit 1`,
  );
  if (!customer) return;
  const users = await queryRows<{ email: string; first_name: string | null; last_name: string | null }>(
    db,
    sql`select email, first_name, last_name from users_data where customer_id = ${customer.customer_id}
      order by created_at, user_id limit 20`,
  );
  const cells = [
    ...users.map((u) => [u.email, u.first_name ?? "", u.last_name ?? ""]),
    ...["Noor Haddad", "Ines Duarte", "Tomasz Nowak"].map((name) => {
      const [first, last] = name.split(" ");
      return [`${first}.${last}@${customer.domain}`.toLowerCase(), first, last];
    }),
    ["pat.obrien(at)" + customer.domain, "Pat", "O'Brien"],
  ];
  const mapping = { email: 0, first_name: 1, last_name: 2 };
  // Their outcomes as the preview gives them: the roster's users unchanged, the new people
  // created, the last row in error (src/server/imports/rows.ts decides them for a real file).
  const known = users.length;
  const rows = cells.map((c, k) => {
    const bad = k === cells.length - 1;
    const outcome = bad ? "error" : k < known ? "unchanged" : "create";
    const reason = bad ? importMsg.reasons.emailInvalid(c[0]) : k < known ? importMsg.reasons.unchanged : null;
    return {
      seq: k + 1,
      cells: c,
      email: c[0].toLowerCase(),
      first_name: c[1] || null,
      last_name: c[2] || null,
      outcome,
      reason,
    };
  });
  const counts = { create: cells.length - known - 1, update: 0, unchanged: known, error: 1 };
  const [row] = await queryRows<{ import_id: string }>(
    db,
    sql`insert into imports (file_name, customer_id, status, bytes, row_count, encoding, delimiter, columns, mapping, counts)
      values ('team-roster.csv', ${customer.customer_id}, 'previewed', ${JSON.stringify(cells).length}, ${cells.length},
        'UTF-8', ',', ${JSON.stringify(["Email", "First name", "Last name"])}::jsonb, ${JSON.stringify(mapping)}::jsonb,
        ${JSON.stringify(counts)}::jsonb)
      returning import_id::text`,
  );
  await db.execute(sql`insert into import_rows (import_id, seq, cells, email, first_name, last_name, resolved_customer_id,
      problem, outcome, reason)
    select ${row.import_id}, v.seq, v.cells, v.email, v.first_name, v.last_name, ${customer.customer_id}::uuid,
      case when v.outcome = 'error' then v.reason end, v.outcome, v.reason
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as v(seq int, cells jsonb, email text, first_name text, last_name text, outcome text, reason text)`);
}
