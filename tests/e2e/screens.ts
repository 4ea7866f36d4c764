import { existsSync, readdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createRootRoute, createRouter } from "@tanstack/react-router";
import { routeKit, type Feature } from "../../src/web/lib/routes";
import { apiGet } from "./fixtures";

/**
 * Every feature's declaration, read as the app's router reads it (lib/features.ts finds them with
 * the build's `import.meta.glob`, which Node lacks): every `src/web/<feature>/routes.ts`.
 */
const web = new URL("../../src/web/", import.meta.url);
const features: Feature[] = await Promise.all(
  readdirSync(web)
    .filter((folder) => existsSync(new URL(`${folder}/routes.ts`, web)))
    .map(async (folder) => ((await import(new URL(`${folder}/routes.ts`, web).href)) as { feature: Feature }).feature),
);

/**
 * Every screen of the console, routed as the app routes them: a route added to a feature's
 * `routes.ts` is swept by the accessibility test and photographed by `npm run screenshots` the day
 * it exists. Detail routes get real ids from the API, by a resolver below or else from their list
 * (`firstOfList`).
 */
export function routePaths(): string[] {
  const root = createRootRoute();
  const kit = routeKit(root);
  const router = createRouter({ routeTree: root.addChildren(features.flatMap((f) => f.routes(kit))) });
  return Object.keys(router.routesByPath)
    .filter((path) => path !== "")
    .sort();
}

type Resolver = (page: Page) => Promise<string>;

/** A real id for each route parameter, chosen to show a well-filled record. */
const resolvers: Record<string, Resolver> = {
  customerId: async (page) =>
    (await apiGet(page, "/api/customers?limit=1&sort=user_count&order=desc")).items[0].customer_id,
  teamId: async (page) => (await apiGet(page, "/api/teams?limit=1&sort=user_count&order=desc")).items[0].team_id,
  skillId: async (page) => (await apiGet(page, "/api/skills?limit=1&sort=team_count&order=desc")).items[0].skill_id,
  promptId: async (page) => {
    // A prompt with content and platforms, to show a well-filled page.
    const { items } = await apiGet<{
      items: Array<{ prompt_id: string; prompt_excerpt: string | null; platform_names: string[] }>;
    }>(page, "/api/prompts?limit=100");
    return (items.find((p) => p.prompt_excerpt && p.platform_names.length > 0) ?? items[0]).prompt_id;
  },
  platformId: async (page) => {
    const { items } = await apiGet<{ items: Array<{ platform_id: string; prompt_count: number }> }>(
      page,
      "/api/platforms?limit=100",
    );
    return (items.find((p) => p.prompt_count > 0) ?? items[0]).platform_id;
  },
  changeId: async (page) => {
    // A pending edit by another operator than the admin: its diff, variables and decision show.
    const { items } = await apiGet<{
      items: Array<{ change_id: string; kind: string; proposed_by_email: string | null }>;
    }>(page, "/api/prompt-changes?limit=100");
    return (items.find((c) => c.kind === "update" && c.proposed_by_email !== "admin@pedal.example") ?? items[0])
      .change_id;
  },
  userId: async (page) => {
    const { items } = await apiGet<{ items: Array<{ user_id: string; first_name: string | null; roles: string[] }> }>(
      page,
      "/api/users?limit=100&sort=last_login&order=desc",
    );
    return (items.find((u) => u.first_name && u.roles.length >= 2) ?? items[0]).user_id;
  },
};

/**
 * The resolver of a parameter none is declared for, as the record kit names them: `/models/$modelId`
 * takes the first row's `model_id` of GET /api/models; with no row, an id no record has, so the
 * sweep sees the page's "not found" view (a resolver above, or demo rows, shows a filled page).
 */
function firstOfList(route: string, param: string): Resolver {
  const list = route.slice(0, route.indexOf(`/$${param}`));
  const column = param.replace(/Id$/, "_id");
  return async (page) => {
    const { items } = await apiGet<{ items: Array<Record<string, string>> }>(page, `/api${list}?limit=1`);
    return items[0]?.[column] ?? "00000000-0000-4000-8000-000000000000";
  };
}

export type Screen = { route: string; path: string; name: string };

/** "/customers/$customerId/add-team" → "customers-id-add-team"; "/" → "dashboard". */
export const screenName = (route: string) =>
  route === "/"
    ? "dashboard"
    : route
        .slice(1)
        .replace(/\$[A-Za-z_]+/g, "id")
        .replace(/\//g, "-");

/**
 * `route` with its parameters filled in (the page must be signed in); `ids` chooses some of them
 * and keeps those it resolved for the next call.
 */
export async function screenOf(page: Page, route: string, ids = new Map<string, string>()): Promise<Screen> {
  let path = route;
  for (const [, param] of route.matchAll(/\$([A-Za-z_]+)/g)) {
    const resolve = resolvers[param] ?? firstOfList(route, param);
    if (!ids.has(param)) ids.set(param, await resolve(page));
    path = path.replace(`$${param}`, ids.get(param)!);
  }
  return { route, path, name: screenName(route) };
}

/** Every route with its parameters filled in (the page must be signed in); `ids` chooses some of them. */
export async function screens(page: Page, ids = new Map<string, string>()): Promise<Screen[]> {
  const result: Screen[] = [];
  for (const route of routePaths()) result.push(await screenOf(page, route, ids));
  return result;
}

/** Waits until a screen has loaded: no request in flight, no skeleton, no busy table. */
export async function settled(page: Page) {
  await page.waitForLoadState("networkidle");
  await page
    .locator(".skeleton, [aria-busy=true], [role=status] .loading")
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => undefined);
}
