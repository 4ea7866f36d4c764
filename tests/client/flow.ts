/**
 * What an integrator writes with a client generated from /api/openapi.json (openapi-typescript
 * types, openapi-fetch calls): sign in, then create, read, search, edit with If-Match, meet a
 * stale save's 409 with the record as it is now; then create a platform and delete it with
 * `cascade` (a boolean). tests/api/generated-client.test.ts
 * generates `openapi.d.ts` from the running console, type-checks this file against it (strictly)
 * and runs it, so the document and the server cannot drift apart.
 */
import createClient from "openapi-fetch";
import type { paths } from "../../test-results/generated-client/openapi";

/** What the flow saw, for the test to compare with what the console holds. */
export type FlowReport = {
  operator: string;
  customerId: string;
  found: number;
  renamed: string;
  staleStatus: number;
  staleCurrentName: string;
  deleted: boolean;
};

/**
 * Runs the flow through `fetch` (a real server's or the app's own), signed in as `email`/`password`.
 * Throws, with the step's name, on any answer other than the one expected.
 */
export async function runFlow(
  fetcher: (request: Request) => Promise<Response>,
  email: string,
  password: string,
): Promise<FlowReport> {
  let cookie = "";
  const client = createClient<paths>({
    baseUrl: "http://console.test",
    fetch: async (request) => {
      if (cookie) request.headers.set("cookie", cookie);
      const response = await fetcher(request);
      const set = response.headers.getSetCookie().map((c) => c.split(";")[0]);
      if (set.length > 0) cookie = set.join("; ");
      return response;
    },
  });
  const fail = (step: string, status: number, body: unknown): never => {
    throw new Error(`${step}: ${status} ${JSON.stringify(body)}`);
  };

  const signIn = await client.POST("/api/auth/sign-in/email", { body: { email, password } });
  if (!signIn.data) return fail("sign in", signIn.response.status, signIn.error);
  const session = await client.GET("/api/auth/get-session");
  if (!session.data) return fail("session", session.response.status, session.error);

  const name = `Generated Client ${Date.now()}`;
  const created = await client.POST("/api/customers", {
    body: { customer_name: name, status: "trial", valid_domains: "client.example" },
  });
  if (!created.data) return fail("create", created.response.status, created.error);
  const customerId: string = created.data.customer_id;

  const read = await client.GET("/api/customers/{customerId}", { params: { path: { customerId } } });
  if (!read.data) return fail("read", read.response.status, read.error);
  // The status is typed as the spec's list: a typo here would not compile.
  const status: "active" | "inactive" | "trial" | (string & {}) = read.data.status;

  const list = await client.GET("/api/customers", { params: { query: { q: name, limit: 10 } } });
  if (!list.data) return fail("search", list.response.status, list.error);

  const version = read.data.updated_at;
  const edited = await client.PATCH("/api/customers/{customerId}", {
    params: { path: { customerId }, header: { "if-match": version } },
    body: { customer_name: `${name} renamed`, status: status === "trial" ? "active" : "trial" },
  });
  if (!edited.data) return fail("edit", edited.response.status, edited.error);

  // The same version again is stale: 409 with the record as it is now.
  const stale = await client.PATCH("/api/customers/{customerId}", {
    params: { path: { customerId }, header: { "if-match": version } },
    body: { customer_name: `${name} overwritten` },
  });
  if (stale.response.status !== 409 || !stale.error) return fail("stale edit", stale.response.status, stale.data);
  const current = "current" in stale.error.error ? stale.error.error.current : undefined;

  const platform = await client.POST("/api/platforms", { body: { platform_name: `${name} platform` } });
  if (!platform.data) return fail("create platform", platform.response.status, platform.error);
  const platformId = platform.data.platform_id;
  const removed = await client.DELETE("/api/platforms/{platformId}", {
    params: { path: { platformId }, query: { cascade: true } },
  });
  if (!removed.data) return fail("delete platform", removed.response.status, removed.error);
  const gone = await client.GET("/api/platforms/{platformId}", { params: { path: { platformId } } });

  const out = await client.POST("/api/auth/sign-out", { body: {} });
  if (!out.data) return fail("sign out", out.response.status, out.error);

  return {
    operator: session.data?.user.email ?? "",
    customerId,
    found: list.data.total,
    renamed: edited.data.customer_name,
    staleStatus: stale.response.status,
    staleCurrentName: current?.customer_name ?? "",
    deleted: gone.response.status === 404,
  };
}
