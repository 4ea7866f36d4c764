import { sql, type SQL } from "drizzle-orm";
import { searchKinds, searchPerKind, type SearchHit, type SearchKind, type SearchResult } from "../../domain/search";
import { queryRows, type Database } from "../db/client";
import { userFullName, userNameSortKey } from "../db/schema";
import { searchMatch } from "../http/lists";

/**
 * How one kind of record is searched: its rows (`from`, alias t), id, title, the lowercased title
 * that an index covers (`key`), an optional second exact key (a user's email), the ILIKE condition
 * backed by pg_trgm indexes, and the line shown under the title.
 */
type KindSpec = {
  from: SQL;
  id: SQL;
  title: SQL;
  key: SQL;
  alt?: SQL;
  match: (pattern: string) => SQL;
  subtitle: SQL;
  status: SQL;
};

/**
 * A kind found by one name column of its rows (alias t): that column is the title, its lowercased
 * value the index-covered key and the trigram-matched text; `id` and `name` are column names.
 */
function byName(from: SQL, id: string, name: string, subtitle: SQL): KindSpec {
  const title = sql.raw(`t.${name}`);
  return {
    from,
    id: sql.raw(`t.${id}`),
    title,
    key: sql`lower(${title})`,
    match: (p) => sql`${title} ilike ${p}`,
    subtitle,
    status: sql`t.status`,
  };
}

const specs: Record<SearchKind, KindSpec> = {
  customers: byName(sql`customers t`, "customer_id", "customer_name", sql`t.valid_domains`),
  users: {
    from: sql`users_data t join customers c on c.customer_id = t.customer_id`,
    id: sql`t.user_id`,
    title: sql`coalesce(nullif(btrim(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '')), ''), t.email)`,
    key: userNameSortKey({ first_name: sql`t.first_name`, last_name: sql`t.last_name`, email: sql`t.email` }),
    alt: sql`lower(t.email)`,
    match: (p) => sql`(t.email ilike ${p} or ${userFullName("t")} ilike ${p})`,
    subtitle: sql`t.email || ' · ' || c.customer_name`,
    status: sql`t.status`,
  },
  teams: byName(
    sql`teams t join customers c on c.customer_id = t.customer_id`,
    "team_id",
    "team_name",
    sql`c.customer_name`,
  ),
  skills: byName(
    sql`skills t`,
    "skill_id",
    "skill_name",
    sql`t.type || case when t.is_global then ' · global' else '' end`,
  ),
  prompts: byName(
    sql`pedal_prompts t join skills s on s.skill_id = t.skill_id`,
    "prompt_id",
    "prompt_title",
    sql`s.skill_name`,
  ),
  platforms: byName(sql`platforms t`, "platform_id", "platform_name", sql`t.platform_description`),
};

/** Candidates ranked per kind: enough to find the best few among very common words without sorting every match. */
const candidateLimit = 200;

/** The first 20 rows, in `key`'s index order, whose `key` starts with `lq` (a range scan of that index). */
const startingWith = (spec: KindSpec, cols: SQL, key: SQL, lq: string) => sql`
      (select ${cols} from ${spec.from}
        where ${key} >= ${lq} and ${key} < ${lq} || chr(1114111) and starts_with(${key}, ${lq})
        order by ${key} limit 20)`;

/**
 * One SQL statement for one kind: the union of exact matches (index on the lowercased title, and
 * the email for users), names starting with the text (a range scan of the same index) and up to
 * 200 rows containing it (pg_trgm GIN index), ranked exact first, then starting with the text,
 * then a word starting with it, then anywhere; shorter titles first. Below 3 characters a search
 * matches starts only, and those come from range scans alone (the title's index, and the email's
 * for users): a two-letter prefix's trigrams are in tens of thousands of rows (at a million users
 * `an` took 13–21 ms per kind through them, against under 1 ms through the ranges).
 */
function kindQuery(spec: KindSpec, q: string): SQL {
  const lq = q.toLowerCase();
  const match = searchMatch(q);
  const cols = sql`${spec.id} as id, ${spec.title} as title, ${spec.key} as key, ${spec.alt ?? sql`null::text`} as alt, ${spec.subtitle} as subtitle, ${spec.status} as status`;
  const exact = spec.alt ? sql`(${spec.key} = ${lq} or ${spec.alt} = ${lq})` : sql`${spec.key} = ${lq}`;
  const more = match.prefix
    ? spec.alt
      ? sql`union ${startingWith(spec, cols, spec.alt, lq)}`
      : sql``
    : sql`union (select ${cols} from ${spec.from} where ${spec.match(match.pattern)} limit ${candidateLimit})`;
  return sql`
    select id, title, subtitle, status, count(*) over ()::int as n from (
      (select ${cols} from ${spec.from} where ${exact} limit ${searchPerKind})
      union ${startingWith(spec, cols, spec.key, lq)}
      ${more}
    ) h
    order by case when h.key = ${lq} or h.alt = ${lq} then 0 when starts_with(h.key, ${lq}) then 1
      when position(' ' || ${lq} in h.key) > 0 then 2 else 3 end, length(h.key), h.key, h.id
    limit ${searchPerKind}`;
}

/**
 * The shell's global search (SPEC.md §2 "Shell" search box): customers, users, teams, skills,
 * prompts and platforms matching `q` case-insensitively, one statement per kind (run side by side
 * on a pool), at most `searchPerKind` each, best match first, and whether more match.
 */
export async function globalSearch(db: Database, q: string): Promise<SearchResult> {
  const groups = await Promise.all(
    searchKinds.map(async (kind) => {
      const rows = await queryRows<SearchHit & { n: number }>(db, kindQuery(specs[kind], q));
      return {
        kind,
        items: rows.map(({ id, title, subtitle, status }) => ({ id, title, subtitle, status })),
        more: rows.length > 0 && Number(rows[0].n) > searchPerKind,
      };
    }),
  );
  return { q, groups };
}

/** The statement of one kind (the benchmark explains it). */
export const searchStatement = (kind: SearchKind, q: string) => kindQuery(specs[kind], q);
