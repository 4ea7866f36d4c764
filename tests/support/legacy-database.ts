/**
 * A database as the console this one replaces left it: the eleven tables of SPEC.md §3 in a looser
 * shape (statuses as text without checks, no foreign keys, no indexes but the entity tables'
 * primary keys, no keys on the link tables), some thousands of rows, and a few bad ones:
 *  - customer `archived` (a status outside the spec's list), user `suspended`, role `owner`;
 *  - a membership of a team that does not exist (orphaned team_id);
 *  - the same (team_id, skill_id) assignment twice;
 *  - skill `deprecated` of type `imported`, prompt `published`, platform `retired`, comment `flagged`.
 * Used by tests/api/adopt.test.ts and the adopted-data browser test.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** Fixed ids of the bad rows, to find them in reports and screens. */
export const legacy = {
  archivedCustomer: "00000000-0000-4000-8000-00000000a001",
  archivedCustomerName: "Zeta Archived Holdings",
  suspendedUser: "00000000-0000-4000-8000-00000000b001",
  suspendedUserEmail: "suspended.user@zeta.example",
  orphanTeam: "00000000-0000-4000-8000-00000000dead",
  duplicatedTeam: "00000000-0000-4000-8000-00000000c001",
  duplicatedSkill: "00000000-0000-4000-8000-00000000e001",
  deprecatedSkill: "00000000-0000-4000-8000-00000000e002",
  publishedPrompt: "00000000-0000-4000-8000-00000000f001",
  retiredPlatform: "00000000-0000-4000-8000-00000000f002",
  flaggedComment: "00000000-0000-4000-8000-00000000f003",
  customers: 40,
  usersPerCustomer: 60,
  teamsPerCustomer: 4,
  skills: 30,
};

const shape = `
create table customers (customer_id uuid primary key default gen_random_uuid(), customer_name text not null,
  valid_domains text, status text not null default 'active', created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table users_data (user_id uuid primary key default gen_random_uuid(), customer_id uuid, email text not null, first_name text, last_name text,
  job_title text, status text default 'active', last_login timestamptz, created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table users_roles (user_id uuid, role text);
create table teams (team_id uuid primary key default gen_random_uuid(), customer_id uuid not null, team_name text not null,
  status text not null default 'active', created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table teams_users (team_id uuid not null, user_id uuid not null, customer_id uuid);
create table skills (skill_id uuid primary key default gen_random_uuid(), skill_name text not null, skill_description text,
  type text not null default 'manual', is_global boolean not null default false, status text not null default 'active',
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table teams_skills (team_id uuid not null, skill_id uuid not null, customer_id uuid, status text not null default 'active',
  assigned_at timestamptz not null default now(), score real, last_used timestamptz);
create table skill_comments (comment_id uuid primary key default gen_random_uuid(), customer_id uuid, skill_id uuid, user_id uuid,
  comment_value text not null, status text not null default 'pending', created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table pedal_prompts (prompt_id uuid primary key default gen_random_uuid(), prompt_title text not null, prompt_value text, skill_id uuid,
  status text not null default 'active', created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table platforms (platform_id uuid primary key default gen_random_uuid(), platform_name text not null, platform_description text,
  status text not null default 'active', created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table platform_prompts (platform_id uuid not null, prompt_id uuid not null, assigned_at timestamptz not null default now(), is_active boolean not null default true);
`;

/** Deterministic rows (md5-derived uuids), so that every run builds the same data. */
const rows = (l = legacy) => `
insert into customers (customer_id, customer_name, valid_domains, status, created_at, updated_at)
select md5('c' || i)::uuid, 'Legacy Customer ' || lpad(i::text, 3, '0'), 'c' || i || '.example',
  (array['active', 'trial', 'inactive'])[1 + i % 3], timestamptz '2024-01-01' + i * interval '1 day', timestamptz '2024-06-01' + i * interval '1 hour'
from generate_series(1, ${l.customers}) i;
insert into customers (customer_id, customer_name, status) values ('${l.archivedCustomer}', '${l.archivedCustomerName}', 'archived');

insert into users_data (user_id, customer_id, email, first_name, last_name, job_title, status, last_login, created_at)
select md5('u' || i)::uuid, md5('c' || (1 + i % ${l.customers}))::uuid, 'user' || i || '@legacy.example', 'First' || i, 'Last' || i,
  case when i % 5 = 0 then null else 'Engineer ' || i % 7 end, (array['active', 'inactive', 'pending'])[1 + i % 3],
  case when i % 4 = 0 then null else timestamptz '2025-01-01' + i * interval '1 minute' end, timestamptz '2024-02-01' + i * interval '1 minute'
from generate_series(1, ${l.customers * l.usersPerCustomer}) i;
insert into users_data (user_id, customer_id, email, first_name, last_name, status) values
  ('${l.suspendedUser}', '${l.archivedCustomer}', '${l.suspendedUserEmail}', 'Sue', 'Spended', 'suspended');

insert into users_roles (user_id, role) select md5('u' || i)::uuid, (array['admin', 'manager', 'member'])[1 + i % 3] from generate_series(1, ${l.customers * l.usersPerCustomer}) i;
insert into users_roles (user_id, role) select md5('u' || i)::uuid, 'member' from generate_series(1, ${l.customers * l.usersPerCustomer}, 3) i where i % 3 <> 2;
insert into users_roles (user_id, role) values ('${l.suspendedUser}', 'owner');

insert into teams (team_id, customer_id, team_name, status, created_at)
select md5('t' || i)::uuid, md5('c' || (1 + i % ${l.customers}))::uuid, 'Legacy Team ' || i, (array['active', 'inactive', 'pending'])[1 + i % 3],
  timestamptz '2024-03-01' + i * interval '1 hour'
from generate_series(1, ${l.customers * l.teamsPerCustomer}) i;
insert into teams (team_id, customer_id, team_name, status) values ('${l.duplicatedTeam}', md5('c1')::uuid, 'Legacy Duplicated Team', 'active');

insert into teams_users (team_id, user_id, customer_id)
select md5('t' || (1 + i % ${l.customers * l.teamsPerCustomer}))::uuid, md5('u' || i)::uuid, md5('c' || (1 + i % ${l.customers}))::uuid
from generate_series(1, ${l.customers * l.usersPerCustomer}) i;
insert into teams_users (team_id, user_id, customer_id) values ('${l.orphanTeam}', md5('u1')::uuid, md5('c2')::uuid);

insert into skills (skill_id, skill_name, skill_description, type, is_global, status, created_at)
select md5('s' || i)::uuid, 'Legacy Skill ' || i, case when i % 4 = 0 then null else 'Does thing ' || i end,
  (array['manual', 'agent', 'detected'])[1 + i % 3], i % 5 = 0, (array['active', 'inactive'])[1 + i % 2], timestamptz '2024-04-01' + i * interval '1 day'
from generate_series(1, ${l.skills}) i;
insert into skills (skill_id, skill_name, status) values ('${l.duplicatedSkill}', 'Legacy Duplicated Skill', 'active');
insert into skills (skill_id, skill_name, type, status) values ('${l.deprecatedSkill}', 'Legacy Deprecated Skill', 'imported', 'deprecated');

insert into teams_skills (team_id, skill_id, customer_id, status, score, assigned_at)
select md5('t' || t)::uuid, md5('s' || s)::uuid, md5('c' || (1 + t % ${l.customers}))::uuid, (array['active', 'inactive'])[1 + (t + s) % 2],
  case when s % 3 = 0 then null else (t * s) % 100 end, timestamptz '2024-05-01' + (t + s) * interval '1 hour'
from generate_series(1, ${l.customers * l.teamsPerCustomer}) t, generate_series(1, 3) s;
insert into teams_skills (team_id, skill_id, customer_id, status) values
  ('${l.duplicatedTeam}', '${l.duplicatedSkill}', md5('c1')::uuid, 'active'),
  ('${l.duplicatedTeam}', '${l.duplicatedSkill}', md5('c1')::uuid, 'inactive');

insert into pedal_prompts (prompt_id, prompt_title, prompt_value, skill_id, status)
select md5('p' || i)::uuid, 'Legacy Prompt ' || i, 'Prompt text ' || i, md5('s' || (1 + i % ${l.skills}))::uuid, (array['active', 'inactive', 'draft'])[1 + i % 3]
from generate_series(1, ${l.skills * 2}) i;
insert into platforms (platform_id, platform_name, platform_description, status)
select md5('f' || i)::uuid, 'Legacy Platform ' || i, 'Platform ' || i, (array['active', 'inactive', 'draft'])[1 + i % 3] from generate_series(1, 6) i;
insert into platform_prompts (platform_id, prompt_id, is_active)
select md5('f' || (1 + i % 6))::uuid, md5('p' || i)::uuid, i % 2 = 0 from generate_series(1, ${l.skills * 2}) i;
insert into skill_comments (customer_id, skill_id, user_id, comment_value, status)
select md5('c' || (1 + i % ${l.customers}))::uuid, md5('s' || (1 + i % ${l.skills}))::uuid, md5('u' || i)::uuid, 'Comment ' || i,
  (array['pending', 'active', 'inactive', 'rejected'])[1 + i % 4]
from generate_series(1, 300) i;
insert into pedal_prompts (prompt_id, prompt_title, skill_id, status) values ('${l.publishedPrompt}', 'Legacy Published Prompt', '${l.deprecatedSkill}', 'published');
insert into platforms (platform_id, platform_name, status) values ('${l.retiredPlatform}', 'Legacy Retired Platform', 'retired');
insert into platform_prompts (platform_id, prompt_id, is_active) values ('${l.retiredPlatform}', '${l.publishedPrompt}', true);
insert into skill_comments (comment_id, customer_id, skill_id, user_id, comment_value, status)
values ('${l.flaggedComment}', md5('c1')::uuid, '${l.deprecatedSkill}', md5('u1')::uuid, 'A flagged comment', 'flagged');
`;

/** A database on the server at `serverUrl`: its URL, and drop() to remove it. */
export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/** Creates an empty database named `<prefix>_<random>` on the server of `serverUrl`. */
export async function createScratchDatabase(serverUrl: string, prefix = "pedal_adopt"): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Fills the database at `url` with the legacy shape and rows. */
export async function fillLegacyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(shape);
    await client.query(rows());
    await client.query("analyze");
  } finally {
    await client.end();
  }
}

/** Total rows the legacy database holds in the eleven tables. */
export async function legacyRowCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = [
      "customers",
      "users_data",
      "users_roles",
      "teams",
      "teams_users",
      "teams_skills",
      "skills",
      "skill_comments",
      "pedal_prompts",
      "platforms",
      "platform_prompts",
    ];
    const { rows: r } = await client.query(
      `select ${tables.map((t) => `(select count(*) from ${t})`).join(" + ")} as n`,
    );
    return Number(r[0].n);
  } finally {
    await client.end();
  }
}
