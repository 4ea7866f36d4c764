import { createRoute, lazyRouteComponent, type AnyRoute } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { ErrorState } from "../components/ui";

/** A screen's code could not be loaded (server down, or network lost): shown as such, with Retry. */
class ChunkLoadError extends Error {}

const lazyPages: Array<{ preload?: () => Promise<void> }> = [];

/** A screen module, loaded with import() on first visit. */
export type ScreenModule = () => Promise<{ default: React.ComponentType }>;

/**
 * A screen loaded on first visit. A failed load becomes a ChunkLoadError (so the router does not
 * reload the page into the browser's own error page) and Retry tries the load again.
 */
function lazyPage(load: ScreenModule) {
  const component = lazyRouteComponent(() =>
    load().catch(() => {
      throw new ChunkLoadError(msg.lists.cannotReach);
    }),
  );
  lazyPages.push(component as { preload?: () => Promise<void> });
  return component;
}

/** A route's error view: "Cannot reach the server" with a Retry that reloads the screens' code, or the error's message. */
export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  if (error instanceof ChunkLoadError) {
    const retry = async () => {
      await Promise.all(lazyPages.map((p) => p.preload?.()));
      reset();
    };
    return (
      <ErrorState title={msg.lists.cannotReach} message={msg.lists.cannotReachText} onRetry={() => void retry()} />
    );
  }
  return (
    <ErrorState
      title={msg.app.genericError}
      message={error instanceof Error ? error.message : String(error)}
      onRetry={reset}
    />
  );
}

/**
 * How a feature declares its screens (its `routes.ts`), under the root route the router passes in:
 * `page(path, load)` for a screen, `searchPage(path, validateSearch, load)` for one whose URL
 * carries state (a list's search, sort, filters, page), checked by `validateSearch` (bad values are
 * dropped). Each screen's code loads on first visit.
 */
export function routeKit<R extends AnyRoute>(root: R) {
  return {
    page: <P extends string>(path: P, load: ScreenModule) =>
      createRoute({ getParentRoute: () => root, path, component: lazyPage(load), errorComponent: RouteError }),
    searchPage: <P extends string, S>(
      path: P,
      validateSearch: (search: Record<string, unknown>) => S,
      load: ScreenModule,
    ) =>
      createRoute({
        getParentRoute: () => root,
        path,
        validateSearch,
        component: lazyPage(load),
        errorComponent: RouteError,
      }),
  };
}

/** What a feature's `routes.ts` receives. */
export type RouteKit<R extends AnyRoute> = ReturnType<typeof routeKit<R>>;
