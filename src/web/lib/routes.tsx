import {
  createRoute,
  lazyRouteComponent,
  type AnyContext,
  type AnyRoute,
  type Register,
  type RootRoute,
} from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";
import type { OperatorRole } from "../../domain/enums";
import { appMsg, shellMsg } from "../../domain/messages/common";
import { ErrorState } from "../components/ui";

/** A screen's code could not be loaded (server down, or network lost): shown as such, with Retry. */
class ChunkLoadError extends Error {}

const lazyPages: Array<{ preload?: () => Promise<void> }> = [];

/** A screen module, loaded with import() on first visit; `name` picks an export other than the default. */
export type ScreenModule = () => Promise<Record<string, unknown>>;

/**
 * A screen loaded on first visit. A failed load becomes a ChunkLoadError (so the router does not
 * reload the page into the browser's own error page) and Retry tries the load again.
 */
function lazyPage(load: ScreenModule, name = "default") {
  const component = lazyRouteComponent(
    () =>
      load().catch(() => {
        throw new ChunkLoadError(shellMsg.lists.cannotReach);
      }) as Promise<Record<string, React.ComponentType>>,
    name,
  );
  lazyPages.push(component);
  return component;
}

/** A route's error view: "Cannot reach the server" with a Retry that reloads the screens' code, or the error's message. */
export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  if (error instanceof ChunkLoadError) {
    const retry = async () => {
      await Promise.all(lazyPages.map((p) => p.preload?.() ?? Promise.resolve()));
      reset();
    };
    return (
      <ErrorState
        title={shellMsg.lists.cannotReach}
        message={shellMsg.lists.cannotReachText}
        onRetry={() => void retry()}
      />
    );
  }
  return (
    <ErrorState
      title={appMsg.genericError}
      message={error instanceof Error ? error.message : String(error)}
      onRetry={reset}
    />
  );
}

/** No router context, no loader dependencies. */
type None = Record<never, never>;

/** The root route's type: features declare their screens under it without importing the app. */
export type AppRoot = RootRoute<
  Register,
  undefined,
  None,
  AnyContext,
  AnyContext,
  None,
  undefined,
  unknown,
  unknown,
  unknown,
  unknown,
  undefined
>;

/**
 * How a feature declares its screens (its `routes.ts`), under the root route the router passes in:
 * `page(path, load)` for a screen, `searchPage(path, validateSearch, load)` for one whose URL
 * carries state (a list's search, sort, filters, page), checked by `validateSearch` (bad values are
 * dropped). Each screen's code loads on first visit; `name` picks a named export of the module (an
 * entity's add and edit screens live in its form module: `formPages`).
 */
export function routeKit(root: AppRoot) {
  const page = <P extends string>(path: P, load: ScreenModule, name?: string) =>
    createRoute({ getParentRoute: () => root, path, component: lazyPage(load, name), errorComponent: RouteError });
  const searchPage = <P extends string, S>(
    path: P,
    validateSearch: (search: Record<string, unknown>) => S,
    load: ScreenModule,
    name?: string,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      validateSearch,
      component: lazyPage(load, name),
      errorComponent: RouteError,
    });
  return {
    page,
    /** An entity's add and edit screens, `<list>/add` and `<list>/$<param>/edit`, from its form module (`AddPage`, `EditPage`). */
    formPages: <L extends string, I extends string>(list: L, param: I, load: ScreenModule) =>
      [
        page(`${list}/add` as const, load, "AddPage"),
        page(`${list}/$${param}/edit` as const, load, "EditPage"),
      ] as const,
    searchPage,
    /**
     * A kind of record's four screens from one module (`recordScreens`: `ListPage`, `AddPage`,
     * `EditPage`, `DetailPage`): `<list>` with its URL search, `<list>/add`, `<list>/$<param>/edit`
     * and `<list>/$<param>`.
     */
    recordPages: <L extends string, I extends string, S>(
      list: L,
      param: I,
      validateSearch: (search: Record<string, unknown>) => S,
      load: ScreenModule,
    ) =>
      [
        searchPage(list, validateSearch, load, "ListPage"),
        page(`${list}/add` as const, load, "AddPage"),
        page(`${list}/$${param}/edit` as const, load, "EditPage"),
        page(`${list}/$${param}` as const, load, "DetailPage"),
      ] as const,
  };
}

/** What a feature's `routes.ts` receives. */
export type RouteKit = ReturnType<typeof routeKit>;

/** A sidebar entry: `order` places it (SPEC.md §1), `section: "admin"` lists it under Administration (admins only). */
export type NavEntry = {
  to: string;
  label: string;
  icon: LucideIcon;
  order: number;
  /** The letter that goes to it after `g` (docs/keyboard.md); unique across entries. */
  key: string;
  /** The least role that sees it. */
  need?: OperatorRole;
  section?: "admin";
};

/** A badge colour (components/badges.tsx). */
export type Tone = "success" | "error" | "warning" | "neutral" | "secondary" | "info";

/** A kind of record's badge colours by status (SPEC.md §4); `other` for any status not named. */
export type Palette = Readonly<Record<string, Tone> & { other: Tone }>;

/**
 * Everything a feature registers, declared in its `routes.ts` as `export const feature =
 * defineFeature({...})`: its screens, its sidebar entry and the badge colours of its kinds of
 * record; its data is cached under its folder's name (`queryRoots.<folder>`). The router, the
 * sidebar, the query client and the badges find every feature's declaration themselves
 * (lib/features.ts), so adding a feature edits none of them. The feature also names its declaration in `Features` under its folder's name,
 * for the types of its routes, query root and badge kinds (one line, kept so by `prettier-ignore`):
 *
 *     declare module "../lib/routes" { interface Features { platforms: typeof feature } }
 */
export type Feature = {
  routes: (kit: RouteKit) => readonly AnyRoute[];
  nav?: NavEntry;
  badges?: Readonly<Record<string, Palette>>;
};

/** A feature's declaration, its literal types kept (paths, badge kinds). */
export function defineFeature<const F extends Feature>(feature: F): F {
  return feature;
}

/** Every feature's declaration by folder name; each feature's `routes.ts` adds its own entry. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Features {}

type Registered = Features[keyof Features];

/** Every route of the console, with its path and search types. */
export type AppRoute = ReturnType<Registered["routes"]>[number];

/** The query roots: each feature's folder name (lib/features.ts), and the command palette's own. */
export type QueryRootName = keyof Features | "search" | "views";

/** The kinds of record that have badge colours. */
export type BadgeKind = Registered extends infer F ? (F extends { badges: infer B } ? keyof B & string : never) : never;
