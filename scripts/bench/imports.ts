/**
 * The import step of `npm run bench` (docs/onboarding.md "Import"): on a scratch copy of the
 * seeded database, a new customer's CSV of `rows` people (every hundredth address not one, 20
 * team names created on apply) is sent in 512 KiB parts, read, previewed, and applied, while
 * /api/users is loaded at 16 connections (runs of 3 s; the worst run's p95 is reported). The
 * server's resident memory is sampled throughout (`RunningServer.rss`).
 */
import type { RunningServer } from "./server";
import { runLoad, type LoadResult } from "./load";

export type ImportBenchResult = {
  rows: number;
  bytes: number;
  /** Seconds to send the parts, to read the file, and to map and preview every row. */
  uploadSeconds: number;
  readSeconds: number;
  previewSeconds: number;
  counts: Record<string, number>;
  /** The run: its seconds, status and counts. */
  applySeconds: number;
  status: string;
  changed: number;
  skipped: number;
  /** /api/users?limit=50 at 16 connections while the run ran. */
  usersLoad: LoadResult;
  /** The server's largest resident set during the step, in MiB. */
  maxRssMiB: number;
};

/** Runs the step on `server`, signed in as an admin (`cookie`). */
export async function runImportBench(
  server: RunningServer,
  cookie: string,
  options: { rows: number; log: (line: string) => void },
): Promise<ImportBenchResult> {
  const headers = { cookie, origin: server.url, "content-type": "application/json" };
  const call = async <T>(method: string, path: string, expect: number, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const rssFrom = server.rss.length;
  server.setPhase("import");
  const stamp = Date.now().toString(36);
  const domain = `import-${stamp}.example`;
  const { customer_id } = await call<{ customer_id: string }>("POST", "/api/customers", 201, {
    customer_name: `Import bench ${stamp}`,
    valid_domains: domain,
  });
  const lines = ["Email,First name,Last name,Job title,Roles,Teams"];
  for (let i = 1; i <= options.rows; i++)
    lines.push(
      `${i % 100 === 0 ? `person ${i}` : `person${i}@${domain}`},Person,Number ${i},"Analyst, level ${i % 5}",member,Team ${i % 20}`,
    );
  const file = Buffer.from(lines.join("\r\n") + "\r\n", "utf8");

  const uploadStarted = performance.now();
  const { import_id } = await call<{ import_id: string }>("POST", "/api/imports", 201, {
    file_name: "people.csv",
    customer_id,
  });
  const part = 512 * 1024;
  for (let index = 0; index * part < file.length; index++)
    await call("POST", `/api/imports/${import_id}/parts`, 200, {
      index,
      data: file.subarray(index * part, (index + 1) * part).toString("base64"),
    });
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  const readStarted = performance.now();
  const read = await call<{ mapping: Record<string, number> }>("POST", `/api/imports/${import_id}/parse`, 200, {});
  const readSeconds = (performance.now() - readStarted) / 1000;
  const previewStarted = performance.now();
  const previewed = await call<{ counts: Record<string, number> }>("POST", `/api/imports/${import_id}/mapping`, 200, {
    mapping: read.mapping,
    create_teams: true,
  });
  const previewSeconds = (performance.now() - previewStarted) / 1000;
  options.log(
    `  ${options.rows.toLocaleString("en-US")} rows (${(file.length / 1048576).toFixed(1)} MB): sent in ${uploadSeconds.toFixed(1)} s, read in ${readSeconds.toFixed(1)} s, previewed in ${previewSeconds.toFixed(1)} s ${JSON.stringify(previewed.counts)}`,
  );

  const applyStarted = performance.now();
  const { bulk_id } = await call<{ bulk_id: string }>("POST", `/api/imports/${import_id}/apply`, 202, {});
  const controller = { done: false };
  const loads: LoadResult[] = [];
  const load = (async () => {
    while (!controller.done) loads.push(await runLoad(`${server.url}/api/users?limit=50`, { cookie }, 16, 3, 10));
  })();
  type Progress = { status: string; changed: number; skipped: number };
  let progress = await call<Progress>("GET", `/api/bulk/${bulk_id}`, 200);
  while (progress.status === "running") {
    await new Promise((r) => setTimeout(r, 250));
    progress = await call<Progress>("GET", `/api/bulk/${bulk_id}`, 200);
  }
  const applySeconds = (performance.now() - applyStarted) / 1000;
  controller.done = true;
  await load;
  const usersLoad = loads.reduce((worst, r) => ((r.p95 ?? 0) > (worst.p95 ?? 0) ? r : worst), loads[0]);
  const maxRssMiB = Math.max(0, ...server.rss.slice(rssFrom).map((s) => s.mib));
  return {
    rows: options.rows,
    bytes: file.length,
    uploadSeconds,
    readSeconds,
    previewSeconds,
    counts: previewed.counts,
    applySeconds,
    status: progress.status,
    changed: progress.changed,
    skipped: progress.skipped,
    usersLoad,
    maxRssMiB,
  };
}
