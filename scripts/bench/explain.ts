/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement a benchmarked request runs: the request goes
 * through the app in process with the driver's statements recorded, then each SELECT is explained
 * with the same parameters. Sequential scans over large tables and sorts spilled to disk are listed.
 */
import type { BenchCase } from "./endpoints";
import type { InProcess } from "./inproc";

/** Tables with more rows than this count as large. */
export const largeTableRows = 10_000;

export type ExplainedStatement = {
  sql: string;
  executionMs: number;
  sharedHit: number;
  sharedRead: number;
  /** "Seq Scan on users_data (1,000,200 rows)" for each large table read sequentially. */
  seqScans: string[];
  /** "Sort (external merge, 45,000 kB)" for sorts spilled to disk. */
  diskSorts: string[];
};

export type ExplainResult = { case: BenchCase; statements: ExplainedStatement[]; status: number };

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Sort Method"?: string;
  "Sort Space Used"?: number;
  "Sort Space Type"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
};

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/**
 * Reads of the request itself. The session look-up every request makes (the auth library's
 * queries on "operator_session" and "operator", quoted) is left out.
 */
const isAppQuery = (text: string) => /^\s*(select|with)\b/i.test(text) && !/from "operator(_session)?"/.test(text);

/** Explains every case's statements (one request each). */
export async function explainCases(db: InProcess, cases: BenchCase[]): Promise<ExplainResult[]> {
  const sizes = new Map(
    (
      await db.query<{ relname: string; n: number }>(
        "select relname, greatest(reltuples, 0)::bigint::float8 as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace",
      )
    ).map((r) => [r.relname, Number(r.n)]),
  );
  const results: ExplainResult[] = [];
  for (const c of cases) {
    const { result, statements } = await db.capture(() => db.get(c.path));
    const explained: ExplainedStatement[] = [];
    for (const st of statements.filter((s) => isAppQuery(s.text))) {
      const [row] = await db.query<Record<string, unknown>>(
        `explain (analyze, buffers, format json) ${st.text}`,
        st.values,
      );
      const raw = Object.values(row)[0];
      const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{
        Plan: PlanNode;
        "Execution Time": number;
      }>;
      const seqScans: string[] = [];
      const diskSorts: string[] = [];
      walk(doc[0].Plan, (n) => {
        if (
          /Seq Scan/.test(n["Node Type"]) &&
          n["Relation Name"] &&
          (sizes.get(n["Relation Name"]) ?? 0) > largeTableRows
        ) {
          seqScans.push(
            `${n["Node Type"]} on ${n["Relation Name"]} (${Math.round(sizes.get(n["Relation Name"])!).toLocaleString("en-US")} rows${(n["Actual Loops"] ?? 1) > 1 ? `, ${n["Actual Loops"]} loops` : ""})`,
          );
        }
        if (n["Sort Space Type"] === "Disk")
          diskSorts.push(`Sort (${n["Sort Method"]}, ${n["Sort Space Used"]?.toLocaleString("en-US")} kB on disk)`);
      });
      explained.push({
        sql: st.text.replace(/\s+/g, " ").trim(),
        executionMs: doc[0]["Execution Time"],
        sharedHit: doc[0].Plan["Shared Hit Blocks"] ?? 0,
        sharedRead: doc[0].Plan["Shared Read Blocks"] ?? 0,
        seqScans,
        diskSorts,
      });
    }
    results.push({ case: c, statements: explained, status: result.status });
  }
  return results;
}
