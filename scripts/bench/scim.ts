/**
 * The directory sync step of `npm run bench` (docs/onboarding.md): on a scratch copy of the seeded
 * database, a new customer's directory token, then
 *  1. an initial sync as Okta sends it: for each of `users` users a `userName eq` lookup then a
 *     POST; for each of `groups` groups a `displayName eq` lookup, a POST, and one PATCH adding its
 *     members (the users spread evenly), from `parallel` clients at once;
 *  2. the lookup every Okta create starts with, `GET /Users?filter=userName eq "…"`, loaded at 1
 *     and 16 connections among the million users of the database.
 */
import { runLoad, type LoadResult } from "./load";
import type { RunningServer } from "./server";

export type ScimBenchResult = {
  users: number;
  groups: number;
  parallel: number;
  /** The whole initial sync, in seconds. */
  seconds: number;
  requests: number;
  /** Answers other than the one each step expects. */
  failures: number;
  /** `GET /Users?filter=userName eq …` at 1 and 16 connections. */
  filter: LoadResult[];
};

const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** Runs the step on `server`, signed in as an admin (`cookie`). */
export async function runScimBench(
  server: RunningServer,
  cookie: string,
  options: { users: number; groups: number; parallel: number; duration: number; log: (line: string) => void },
): Promise<ScimBenchResult> {
  const json = { cookie, origin: server.url, "content-type": "application/json" };
  const customer = await fetch(`${server.url}/api/customers`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ customer_name: `Directory bench ${Date.now()}`, valid_domains: "sync.example" }),
  });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${await customer.text()}`);
  const { customer_id } = (await customer.json()) as { customer_id: string };
  const made = await fetch(`${server.url}/api/customers/${customer_id}/directory-tokens`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Bench Okta" }),
  });
  if (made.status !== 201) throw new Error(`directory token: ${made.status} ${await made.text()}`);
  const { token } = (await made.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/scim+json" };
  let requests = 0;
  let failures = 0;
  const call = async (method: string, path: string, expect: number, body?: unknown) => {
    requests += 1;
    const res = await fetch(`${server.url}/scim/v2${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) {
      failures += 1;
      if (failures <= 3) options.log(`  ${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      return undefined;
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;
  /** Runs `work(i)` for i in [0, n) from `parallel` clients. */
  const pool = async (n: number, work: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: options.parallel }, async () => {
        while (next < n) await work(next++);
      }),
    );
  };

  const started = performance.now();
  const ids: string[] = new Array<string>(options.users);
  await pool(options.users, async (i) => {
    const email = `user${i}@sync.example`;
    await call("GET", `/Users?${filter(`userName eq "${email}"`)}&startIndex=1&count=100`, 200);
    const created = await call("POST", "/Users", 201, {
      schemas: [userSchema],
      userName: email,
      name: { givenName: `Given${i}`, familyName: `Family${i}` },
      emails: [{ primary: true, value: email, type: "work" }],
      externalId: `00u${i}`,
      active: true,
    });
    ids[i] = String(created?.id ?? "");
    if (i > 0 && i % 2000 === 0) options.log(`  ${i.toLocaleString("en-US")} users…`);
  });
  await pool(options.groups, async (g) => {
    const name = `Group ${g}`;
    await call("GET", `/Groups?${filter(`displayName eq "${name}"`)}&startIndex=1&count=100`, 200);
    const group = await call("POST", "/Groups", 201, { schemas: [groupSchema], displayName: name, members: [] });
    if (!group) return;
    const members = ids.filter((id, i) => id && i % options.groups === g).map((value) => ({ value }));
    await call("PATCH", `/Groups/${String(group.id)}?excludedAttributes=members`, 204, {
      schemas: [patchOp],
      Operations: [{ op: "add", path: "members", value: members }],
    });
  });
  const seconds = (performance.now() - started) / 1000;
  options.log(
    `  initial sync: ${options.users.toLocaleString("en-US")} users and ${options.groups} groups in ${seconds.toFixed(1)} s (${requests.toLocaleString("en-US")} requests, ${failures} failed)`,
  );

  const lookup = `${server.url}/scim/v2/Users?${filter(`userName eq "user${Math.floor(options.users / 2)}@sync.example"`)}`;
  const loads: LoadResult[] = [];
  for (const connections of [1, 16]) loads.push(await runLoad(lookup, headers, connections, options.duration, 10));
  return {
    users: options.users,
    groups: options.groups,
    parallel: options.parallel,
    seconds,
    requests,
    failures,
    filter: loads,
  };
}
