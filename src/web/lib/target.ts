import type { LinkOptions, RegisteredRouter } from "@tanstack/react-router";

/** Every path of the console's route tree ("/skills/$skillId"), as the router registers it. */
export type RoutePath = Extract<keyof RegisteredRouter["routesByPath"], string>;

/**
 * A place in the console, as the kits take it (a row's page, a card's list, a notice's record, a
 * form's way back): a path of the route tree, which the compiler checks against the routes, with
 * that route's `params` and `search`. One type for every route, so a list of targets (a menu's
 * entries, a table's row links) may name different screens; build one with `linkOptions` from
 * TanStack Router where the params and search should be checked to the letter.
 */
export type Target = {
  [P in RoutePath]: Pick<LinkOptions<RegisteredRouter, "/", P>, "to" | "params" | "search">;
}[RoutePath];
