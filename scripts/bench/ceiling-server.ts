/**
 * The machine's ceiling for one request (run by scripts/bench/ceiling.ts, not by hand): a bare
 * `node:http` server with no framework, no routing, no session check and no list engine, that
 * answers every request by sending the statements a real request of the console sent (recorded
 * with their parameters and, where the console prepares one, its name), one after another on the
 * same driver and database settings as the console, and writing the last statement's rows as JSON
 * (gzip level 1 when the client accepts it and the answer is 1 KB or more, as the console does).
 *
 * What it answers in a second is what Node and the database on this machine give that request
 * before any of the console's own work: a target above it cannot be met by changing the console.
 *
 * Environment: CEILING_STATEMENTS (a JSON file: Array<{ text, values, name?, rowMode? }>), PORT,
 * and DATABASE_URL (PostgreSQL, a pool of 10 as the console opens) or PGLITE_DIR (the embedded
 * database's folder). It prints `listening` once it answers.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { acceptsGzip } from "../../src/server/http/compress-json";
import { applySessionSettings, openPglite } from "../../src/server/db/client";
import type { Statement } from "./inproc";

// Dates stay the text PostgreSQL sends, as the console's driver configuration keeps them.
for (const oid of [pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE])
  pg.types.setTypeParser(oid, (v: string) => v);

const statements = JSON.parse(readFileSync(process.env.CEILING_STATEMENTS!, "utf8")) as Statement[];
let run: (st: Statement) => Promise<unknown[]>;
if (process.env.DATABASE_URL) {
  // pg-pool awaits onConnect before it hands the client out.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, onConnect: applySessionSettings });
  run = async (st) =>
    (
      await pool.query({
        text: st.text,
        values: st.values,
        name: st.name,
        ...(st.rowMode ? { rowMode: st.rowMode } : {}),
      } as pg.QueryConfig)
    ).rows;
} else {
  const handle = await openPglite(process.env.PGLITE_DIR);
  const lite = handle.pglite!;
  run = async (st) =>
    (await lite.query(st.text, st.values, st.rowMode === "array" ? { rowMode: "array" } : undefined)).rows;
}

const server = createServer((req, res) => void answer(req, res));

/** Replays the recorded statements for one request and writes their rows as the console would. */
async function answer(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) {
  try {
    let rows: unknown[] = [];
    for (const st of statements) rows = await run(st);
    const body = Buffer.from(JSON.stringify({ items: rows }));
    const gzip = body.byteLength >= 1024 && acceptsGzip(req.headers["accept-encoding"]);
    const out = gzip ? gzipSync(body, { level: 1 }) : body;
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": out.byteLength,
      vary: "Accept-Encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    res.end(out);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(err));
  }
}
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
