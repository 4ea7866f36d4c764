/**
 * The benchmark's Markdown report and charts (vega-lite rendered to SVG), and the console summary.
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { PageTiming } from "./browser";
import type { BundleReport } from "./bundle";
import type { CeilingResult } from "./ceiling";
import { isDelivery, isUsersFirst, type BenchCase } from "./endpoints";
import type { ExplainResult } from "./explain";
import type { LoadResult } from "./load";
import type { MixedResult } from "./mixed";
import type { BulkBenchResult } from "./bulk";
import type { ScimBenchResult } from "./scim";
import type { ImportBenchResult } from "./imports";
import type { NaiveResult } from "./naive";

export type SeedInfo = {
  reused: boolean;
  command: string;
  totalMs?: number;
  tables?: Array<{ table: string; rows: number; ms: number }>;
};
/** A case's load runs and the server's largest RSS (MiB) while they ran. */
export type CaseResult = { case: BenchCase; runs: LoadResult[]; rssMiB?: number };
export type Check = { target: string; what: string; goal: string; measured: string; ok: boolean };
export type TargetRun = {
  target: "postgres" | "pglite";
  scale: number;
  users: number;
  database: string;
  seed: SeedInfo;
  cases: CaseResult[];
  naive?: NaiveResult;
  explain?: ExplainResult[];
  pages?: PageTiming[];
  /** The same request's statements on a bare node:http server (scripts/bench/ceiling.ts). */
  ceiling?: CeilingResult;
  /** The same for the read API's 304 (If-None-Match), PostgreSQL only. */
  deliveryCeiling?: CeilingResult;
  /** The mixed traffic on its own server (scripts/bench/mixed.ts). */
  mixed?: MixedResult;
  /** A bulk deactivation under list load (scripts/bench/bulk.ts). */
  bulk?: BulkBenchResult;
  /** Directory sync: Okta's initial sync and its lookup (scripts/bench/scim.ts). */
  scim?: ScimBenchResult;
  /** CSV import: a file of 50,000 people read, previewed and applied (scripts/bench/imports.ts). */
  imports?: ImportBenchResult;
  rss: { maxMiB: number; medianMiB: number; samples: number; byPhase: Record<string, number> };
  checks: Check[];
};
export type BenchRun = {
  name: string;
  /** What the run measured beside the command (`--note`), printed under it. */
  note?: string;
  date: string;
  commit: string;
  command: string;
  machine: string;
  durationSeconds: number;
  concurrency: number[];
  bundle?: BundleReport;
  bundleChecks: Check[];
  targets: TargetRun[];
};

const ms = (v: number | null | undefined) =>
  v === null || v === undefined ? "–" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const num = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: v < 10 ? 1 : 0 });
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const caseLabel = (c: BenchCase) =>
  `${c.route.replace(/^\/api/, "")} ${c.kind}${c.kind === "search" && c.note ? ` ${c.note}` : ""}`;

/** The chart of one target: p95 latency of every case at each concurrency, log scale, with the targets. */
export async function chartSvg(run: TargetRun, concurrency: number[]): Promise<string> {
  const values = run.cases.flatMap((c) =>
    c.runs
      .filter((r) => concurrency.includes(r.connections))
      .map((r) => ({
        case: caseLabel(c.case),
        concurrency: `c${r.connections}`,
        p95: Math.max(0.1, r.p95 ?? 30_000),
        answered: r.p95 !== null,
      })),
  );
  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `p95 latency per request, ${run.target} at ${num(run.users)} users (log scale; unanswered runs drawn at 30 s)`,
    width: 520,
    height: { step: 6 },
    config: { font: "sans-serif", axis: { labelFontSize: 10 }, axisX: { tickCount: 8 } },
    layer: [
      {
        data: { values },
        mark: { type: "bar" },
        encoding: {
          y: { field: "case", type: "nominal", sort: null, title: null, axis: { labelLimit: 320 } },
          yOffset: { field: "concurrency", sort: concurrency.map((c) => `c${c}`) },
          x: {
            field: "p95",
            type: "quantitative",
            scale: { type: "log", domain: [1, 60_000] },
            title: "p95 (ms)",
            axis: { values: [1, 10, 50, 150, 1000, 10_000, 60_000], grid: true },
          },
          x2: { datum: 1 },
          color: { field: "concurrency", type: "nominal", sort: concurrency.map((c) => `c${c}`), title: "connections" },
        },
      },
      {
        data: {
          values: [
            { x: 50, label: "50 ms (c1 target)" },
            { x: 150, label: "150 ms (c16 target)" },
          ],
        },
        mark: { type: "rule", strokeDash: [4, 3], color: "#444" },
        encoding: { x: { field: "x", type: "quantitative" } },
      },
    ],
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  return view.toSVG();
}

/**
 * The chart of a target's mixed traffic: the server's RSS (MiB, the largest sample of each second)
 * over the run's minutes, with the goal `goalMiB` as a dashed rule.
 */
export async function mixedChartSvg(run: TargetRun, goalMiB: number): Promise<string> {
  const m = run.mixed!;
  const values = m.rss.series.map((p) => ({ minute: p.s / 60, mib: p.mib }));
  const top = Math.max(goalMiB, m.rss.maxMiB) * 1.1;
  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `Server RSS under mixed traffic, ${run.target} at ${num(run.users)} users (${m.clients} clients, ${num(m.requests)} requests)`,
    width: 520,
    height: 220,
    config: { font: "sans-serif", axis: { labelFontSize: 10 } },
    layer: [
      {
        data: { values },
        mark: { type: "line", interpolate: "step-after", strokeWidth: 1.2 },
        encoding: {
          x: { field: "minute", type: "quantitative", title: "minutes", scale: { domain: [0, m.seconds / 60] } },
          y: { field: "mib", type: "quantitative", title: "RSS (MiB)", scale: { domain: [0, top] } },
        },
      },
      {
        data: { values: [{ y: goalMiB, label: `goal < ${goalMiB}` }] },
        layer: [
          {
            mark: { type: "rule", strokeDash: [4, 3], color: "#b00" },
            encoding: { y: { field: "y", type: "quantitative" } },
          },
          {
            mark: { type: "text", align: "left", dx: 4, color: "#b00", fontSize: 10 },
            encoding: {
              y: { field: "y", type: "quantitative" },
              x: { datum: m.seconds / 60 },
              text: { field: "label" },
            },
          },
        ],
      },
    ],
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  return view.toSVG();
}

/** The Markdown section of a target's mixed traffic; `chart` is its SVG file name. */
function mixedSection(t: TargetRun, chart: string | undefined): string[] {
  const m = t.mixed!;
  const out: string[] = [];
  const w = Object.entries(m.weights)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  out.push("### Mixed traffic", "");
  out.push(
    `${m.clients} clients sending requests back to back for ${num(m.seconds / 60)} min (${num(m.elapsedSeconds)} s until the last one finished) to a new server on a scratch copy of the database (scripts/bench/mixed.ts): list pages with varied sorts, filters and pages, searches, record screens, the dashboard and analytics, writes (customers, teams, users, skills, prompts) and CSV exports read to the end (at most 2 at a time). Weights: ${w}.`,
    "",
  );
  out.push(
    `Server RSS: **max ${num(m.rss.maxMiB)} MiB**, p50 ${num(m.rss.p50MiB)} MiB, at the end ${num(m.rss.endMiB)} MiB (${num(m.rss.startMiB)} MiB before the first request; ${num(m.rss.samples)} samples). ${m.serverErrors} answers 5xx.`,
    "",
  );
  if (chart) out.push(`![RSS under mixed traffic, ${t.target}](${chart})`, "");
  if (m.memory?.series.length) {
    const series = m.memory.series;
    const rows = [
      ["at the largest sample", m.memory.atMax],
      ["at the end", series[series.length - 1]],
    ] as const;
    out.push("What the RSS is made of (/proc/<pid>/smaps, sampled every 15 s; MiB):", "");
    out.push(
      "| sample | total | WebAssembly memory (PGlite) | malloc: thread arenas | malloc: main arena | other anonymous (V8 heap, code, stacks) | files (node, libraries) |",
      "|---|---|---|---|---|---|---|",
    );
    for (const [label, x] of rows)
      out.push(
        `| ${label} (${num(x.s)} s) | ${num(x.totalMiB)} | ${num(x.wasmMiB)} | ${num(x.mallocArenasMiB)} (${x.arenas}) | ${num(x.mallocMainMiB)} | ${num(x.otherMiB)} | ${num(x.fileMiB)} |`,
      );
    out.push("");
  }
  out.push("| kind | requests | statuses | p50 / p95 / max | bytes |", "|---|---|---|---|---|");
  for (const k of m.kinds) {
    const statuses = Object.entries(k.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}: ${num(n)}`)
      .join(", ");
    out.push(
      `| ${k.kind} | ${num(k.requests)} | ${statuses || "–"} | ${ms(k.p50)} / ${ms(k.p95)} / ${ms(k.max)} | ${num(k.bytes)} |`,
    );
  }
  out.push(`| all | ${num(m.requests)} | | | |`, "");
  for (const [title, list] of [
    ["Failures (5xx, timeouts, connection errors; the first ones)", m.failures],
    ["Answers 4xx (the first ones)", m.rejected ?? []],
  ] as const) {
    if (!list.length) continue;
    out.push(`${title}:`, "");
    for (const f of list)
      out.push(`- ${f.kind} \`${f.request}\`: ${f.status} ${f.body.replace(/\s+/g, " ").slice(0, 200)}`);
    out.push("");
  }
  return out;
}

/** The Markdown report of a run. `charts` maps a target to its SVG file name. */
export function markdown(run: BenchRun, charts: Record<string, string>, baseline?: BenchRun): string {
  const out: string[] = [];
  const all = [...run.bundleChecks, ...run.targets.flatMap((t) => t.checks)];
  const failed = all.filter((c) => !c.ok);
  out.push(`# Benchmark: ${run.name}`, "");
  out.push(`${run.date}, commit \`${run.commit}\`, ${run.machine}.`, "");
  out.push("```bash", run.command, "```", "");
  if (run.note) out.push(run.note, "");
  if (run.targets.some((t) => t.cases.length))
    out.push(
      `Each load run: autocannon over loopback for ${run.durationSeconds} s per concurrency (${run.concurrency.join(", ")} connections), every request answered by the real server (\`npm run serve\`: scripts/serve.sh, the bundled server with the built web app) in a child process; the load generator shares the machine's 2 cores with the server and the database. Latencies are exact percentiles of every response received during a run; "–" means no response arrived within the run (a run's requests still in flight at its end are not counted, so figures of requests slower than the run's length understate them), and the next run starts once the server has no work left (leftover queries cancelled on PostgreSQL, waited for on PGlite).`,
      "",
    );
  out.push(`## Targets: ${all.length - failed.length} of ${all.length} met`, "");
  out.push("| | target | goal | measured |", "|---|---|---|---|");
  for (const c of all) out.push(`| ${c.ok ? "✅" : "❌"} | ${c.target}: ${c.what} | ${c.goal} | ${c.measured} |`);
  out.push("");

  if (run.bundle) {
    const b = run.bundle;
    out.push("## Initial JavaScript", "");
    out.push(
      `${kb(b.initialGzip)} gzipped (level 9) in ${b.initial.length} files fetched before any screen: ${b.initial.map((f) => `\`${f.file}\` ${kb(f.gzip)}`).join(", ")}. ${b.lazyChunks} chunks load on demand, among them the screens ${b.lazyScreens.join(", ") || "(none named …Page)"}.`,
      "",
    );
    out.push("Largest sources of the initial code (uncompressed source bytes, from the source maps):", "");
    out.push("| source | bytes |", "|---|---|");
    for (const s of b.initialSources.slice(0, 12)) out.push(`| ${s.source} | ${num(s.bytes)} |`);
    out.push("");
  }

  for (const t of run.targets) {
    const base = baseline?.targets.find((b) => b.target === t.target);
    out.push(
      `## ${t.target === "postgres" ? "PostgreSQL" : "PGlite"}: ${num(t.users)} users (scale ${num(t.scale)})`,
      "",
    );
    out.push(
      `Database: ${t.database}. ${t.seed.reused ? "Reused an already seeded database." : `Seeded by this run in ${ms(t.seed.totalMs)}.`} Seed command: \`${t.seed.command}\`.`,
      "",
    );
    if (t.seed.tables?.length) {
      out.push("", "| table | rows | seconds |", "|---|---|---|");
      for (const s of t.seed.tables)
        out.push(`| ${s.table} | ${s.table === "analyze" ? "" : num(s.rows)} | ${(s.ms / 1000).toFixed(1)} |`);
      out.push("");
    }
    if (charts[t.target]) out.push(`![p95 latency, ${t.target}](${charts[t.target]})`, "");
    if (t.cases.length) {
      const conc = [...new Set(t.cases.flatMap((c) => c.runs.map((r) => r.connections)))].sort((a, b) => a - b);
      out.push(
        "| request | " +
          conc.map((c) => `c${c} p50 / p95 / p99`).join(" | ") +
          " | " +
          conc.map((c) => `c${c} req/s`).join(" | ") +
          " | errors | bytes | RSS max |" +
          (base ? " c1 p50 baseline |" : ""),
      );
      out.push(
        "|---|" +
          conc.map(() => "---").join("|") +
          "|" +
          conc.map(() => "---").join("|") +
          "|---|---|---|" +
          (base ? "---|" : ""),
      );
      for (const c of t.cases) {
        const at = (n: number) => c.runs.find((r) => r.connections === n);
        const lat = conc.map((n) => {
          const r = at(n);
          return r
            ? `${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)}${r.sequential ? ` (${r.responses} timed alone)` : ""}`
            : "";
        });
        const rps = conc.map((n) => {
          const r = at(n);
          return r ? num(r.rps) : "";
        });
        const errors = c.runs.reduce((n, r) => n + r.errors + r.non2xx, 0);
        const timeouts = c.runs.reduce((n, r) => n + r.timeouts, 0);
        const b = (
          base?.cases.find(
            (x) => x.case.route === c.case.route && x.case.kind === c.case.kind && x.case.note === c.case.note,
          ) ??
          base?.cases.find(
            (x) =>
              x.case.route === c.case.route &&
              x.case.kind === c.case.kind &&
              (c.case.kind !== "search" || x.case.route !== "/api/users"),
          )
        )?.runs.find((r) => r.connections === 1);
        out.push(
          `| \`${c.case.path.length > 70 ? caseLabel(c.case) : c.case.path}\`${c.case.note ? ` (${c.case.note})` : ""} | ${lat.join(" | ")} | ${rps.join(" | ")} | ${errors ? `${errors}${timeouts ? ` (${timeouts} timeouts)` : ""}` : "0"} | ${num(c.runs[0]?.bytes ?? 0)} | ${c.rssMiB ? `${num(c.rssMiB)} MiB` : "–"} |${base ? ` ${ms(b?.p50)} |` : ""}`,
        );
      }
      out.push("");
    }
    if (t.naive) {
      const n = t.naive;
      const first = t.cases.find((c) => isUsersFirst(c.case))?.runs.find((r) => r.connections === 1);
      out.push("### Naive pattern (the whole users table, one roles query per user, four card counts)", "");
      out.push(
        `Read ${num(n.fetchedRows)} of ${num(n.users)} rows in ${ms(n.fetchMs)}, ${num(n.roleQueries)} roles queries in ${ms(n.rolesMs)}, the four cards in ${ms(n.cardsMs)}${n.extrapolated ? ", extrapolated linearly" : ""}:`,
        "",
      );
      out.push("```", n.formula, "```", "");
      if (first?.p50)
        out.push(
          `First page of /api/users at 1 connection: p50 ${ms(first.p50)}: **${num(n.totalMs / first.p50)} times faster** than the naive pattern.`,
          "",
        );
    }
    if (t.explain) {
      out.push("### Query plans (EXPLAIN ANALYZE, BUFFERS) of each request's statements", "");
      out.push(
        "| request | statements | SQL time | shared hit / read blocks | sequential scans of large tables, sorts on disk |",
        "|---|---|---|---|---|",
      );
      for (const e of t.explain) {
        const time = e.statements.reduce((n, s) => n + s.executionMs, 0);
        const hit = e.statements.reduce((n, s) => n + s.sharedHit, 0);
        const read = e.statements.reduce((n, s) => n + s.sharedRead, 0);
        const flags = [...new Set(e.statements.flatMap((s) => [...s.seqScans, ...s.diskSorts]))];
        out.push(
          `| ${caseLabel(e.case)} | ${e.statements.length} | ${ms(time)} | ${num(hit)} / ${num(read)} | ${flags.join("; ") || "none"} |`,
        );
      }
      out.push("");
    }
    for (const [c, console_] of [
      [t.ceiling, t.cases.find((x) => isUsersFirst(x.case))],
      [t.deliveryCeiling, t.cases.find((x) => isDelivery(x.case, "not-modified"))],
    ] as const) {
      if (!c) continue;
      out.push(`### The machine's ceiling for \`${c.path}\``, "");
      out.push(
        `A bare \`node:http\` server (scripts/bench/ceiling-server.ts: no framework, no session check, no list engine) sending the ${c.statements.length} statements one request of the console sent, with their parameters, and writing the last one's rows as JSON: ${c.statements.map((s) => `\`${s}…\``).join("; ")}. Its RSS reached ${num(c.rssMiB)} MiB.`,
        "",
      );
      out.push(
        "| connections | bare server req/s | p50 / p95 / p99 | errors | the console req/s |",
        "|---|---|---|---|---|",
      );
      for (const r of c.runs) {
        const mine = console_?.runs.find((x) => x.connections === r.connections);
        out.push(
          `| ${r.connections} | ${num(r.rps)} | ${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)} | ${r.errors + r.non2xx} | ${mine ? `${num(mine.rps)} (${Math.round((100 * mine.rps) / Math.max(r.rps, 0.001))} % of the ceiling)` : "–"} |`,
        );
      }
      out.push("");
      const pairs = c.sideBySide;
      if (pairs) {
        out.push(
          `Side by side at ${pairs.rounds[0]?.console.connections ?? 50} connections, the console and the bare server loaded in turn (the console first in odd rounds): median share **${Math.round(pairs.share * 100)} %**, median p99 ${ms(pairs.consoleP99)} against ${ms(pairs.ceilingP99)}.`,
          "",
          "| round | the console req/s | p99 | bare server req/s | p99 | share |",
          "|---|---|---|---|---|---|",
          ...pairs.rounds.map(
            (r, i) =>
              `| ${i + 1} | ${num(r.console.rps)} | ${ms(r.console.p99)} | ${num(r.ceiling.rps)} | ${ms(r.ceiling.p99)} | ${Math.round((100 * r.console.rps) / Math.max(r.ceiling.rps, 0.001))} % |`,
          ),
          "",
        );
      }
    }
    if (t.pages) {
      out.push("### Screens in Chromium: navigation to the first row shown", "");
      out.push("| screen | loads (first one fetches the code) | rows shown |", "|---|---|---|");
      for (const p of t.pages)
        out.push(`| ${p.page} | ${p.error ? `failed: ${p.error}` : p.loads.map(ms).join(", ")} | ${p.rows ?? "–"} |`);
      out.push("");
    }
    if (t.rss.samples)
      out.push(
        `Server memory (RSS of the child): max ${num(t.rss.maxMiB)} MiB, median ${num(t.rss.medianMiB)} MiB over ${num(t.rss.samples)} samples; max by phase: ${Object.entries(
          t.rss.byPhase,
        )
          .map(([p, v]) => `${p} ${num(v)}`)
          .join(", ")} MiB.`,
        "",
      );
    if (t.mixed) out.push(...mixedSection(t, charts[`${t.target}:mixed`]));
    if (t.bulk) {
      const b = t.bulk;
      out.push(
        "",
        `#### Bulk action: ${num(b.selected)} users of ${JSON.stringify(b.filter)} deactivated`,
        "",
        `Its preview: ${num(b.previewTotal)} users counted in ${b.previewSeconds.toFixed(2)} s (goal ≤ 2 s). ${b.status}: ${num(b.changed)} changed, ${num(b.skipped)} skipped in ${b.seconds.toFixed(1)} s (goal ≤ 60 s); the progress moved ${num(b.progressUpdates)} times, at most ${b.maxProgressGapSeconds.toFixed(2)} s apart (goal ≤ 1 s); /api/users at 16 connections meanwhile: p95 ${b.usersLoad.p95?.toFixed(1) ?? "no answer"} ms (goal < 150 ms), ${b.usersLoad.rps.toFixed(0)}/s.`,
      );
    }
    if (t.scim) {
      const d = t.scim;
      out.push(
        "",
        `#### Directory sync: ${num(d.users)} users and ${num(d.groups)} groups, as Okta sends them`,
        "",
        `Initial sync (a lookup and a POST per user; a lookup, a POST and one PATCH of members per group; ${d.parallel} clients): ${d.seconds.toFixed(1)} s for ${num(d.requests)} requests, ${num(d.failures)} failed (goal ≤ 120 s). The lookup among all the users: ${d.filter.map((l) => `${l.connections} connection${l.connections === 1 ? "" : "s"} p95 ${l.p95?.toFixed(1) ?? "no answer"} ms, ${l.rps.toFixed(0)}/s`).join("; ")} (goal p95 ≤ 20 ms).`,
      );
    }
    if (t.imports) {
      const i = t.imports;
      out.push(
        "",
        `#### CSV import: ${num(i.rows)} rows (${(i.bytes / 1048576).toFixed(1)} MB) into a new customer`,
        "",
        `Sent in 512 KiB parts in ${i.uploadSeconds.toFixed(1)} s; read in ${i.readSeconds.toFixed(1)} s and previewed in ${i.previewSeconds.toFixed(1)} s (goal ≤ 5 s together): ${Object.entries(
          i.counts,
        )
          .map(([k, v]) => `${k} ${num(v)}`)
          .join(
            ", ",
          )}. Applied (${i.status}): ${num(i.changed)} changed, ${num(i.skipped)} skipped in ${i.applySeconds.toFixed(1)} s (goal ≤ 60 s); /api/users at 16 connections meanwhile: p95 ${i.usersLoad.p95?.toFixed(1) ?? "no answer"} ms (goal < 150 ms), ${i.usersLoad.rps.toFixed(0)}/s. The server's RSS during the step: at most ${i.maxRssMiB.toFixed(0)} MiB.`,
      );
    }
  }
  return out.join("\n");
}

/** The lines printed at the end of a run. */
export function summary(run: BenchRun): string {
  const lines: string[] = [];
  for (const t of run.targets) {
    lines.push(`\n${t.target} (${num(t.users)} users):`);
    for (const c of t.cases) {
      const r1 = c.runs.find((r) => r.connections === 1);
      const r16 = c.runs.find((r) => r.connections === 16);
      const r50 = c.runs.find((r) => r.connections === 50);
      lines.push(
        `  ${caseLabel(c.case).padEnd(44)} c1 p95 ${ms(r1?.p95).padStart(8)}  c16 p95 ${ms(r16?.p95).padStart(8)}  c50 ${num(r50?.rps ?? 0).padStart(6)} req/s`,
      );
    }
    if (t.naive) lines.push(`  naive pattern: ${t.naive.formula}`);
    for (const c of [t.ceiling, t.deliveryCeiling])
      for (const r of c?.runs ?? [])
        lines.push(
          `  machine ceiling for ${c!.path} (bare node:http, the same statements): c${r.connections} ${num(r.rps)} req/s`,
        );
    if (t.rss.samples) lines.push(`  server RSS max ${num(t.rss.maxMiB)} MiB`);
    if (t.mixed) {
      const m = t.mixed;
      lines.push(
        `  mixed traffic (${m.clients} clients, ${num(m.seconds / 60)} min): ${num(m.requests)} requests (${m.kinds.map((k) => `${k.kind} ${num(k.requests)}`).join(", ")}), ${m.serverErrors} 5xx; RSS max ${num(m.rss.maxMiB)} MiB, p50 ${num(m.rss.p50MiB)}, end ${num(m.rss.endMiB)}`,
      );
    }
  }
  const all = [...run.bundleChecks, ...run.targets.flatMap((t) => t.checks)];
  lines.push("", `Targets: ${all.filter((c) => c.ok).length} of ${all.length} met`);
  for (const c of all.filter((c) => !c.ok))
    lines.push(`  MISSED ${c.target}: ${c.what}: ${c.measured} (goal ${c.goal})`);
  return lines.join("\n");
}
