import { useEffect, useState } from "react";
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet } from "@tanstack/react-router";
import { msg } from "../domain/messages";
import { useAuth } from "./auth/AuthProvider";
import { ErrorState, Spinner, useDocumentTitle } from "./components/ui";
import { LoginPage } from "./login/LoginPage";
import { NotFoundPage } from "./misc/NotFoundPage";
import {
  auditSearch,
  commentsSearch,
  configSearch,
  customersSearch,
  platformsSearch,
  promptsSearch,
  reviewSearch,
  skillsSearch,
  teamsSearch,
  usersSearch,
} from "./search-schemas";

/**
 * The shell (sidebar, top bar, palette trigger) is its own chunk: the sign-in screen and the
 * session check never wait for it, and index.html preloads it beside the entry script
 * (vite.config.ts).
 */
type ShellComponent = typeof import("./shell/Shell").Shell;
let loadedShell: ShellComponent | undefined;
function loadShell(): Promise<ShellComponent> {
  const loading = import("./shell/Shell").then((m) => (loadedShell = m.Shell));
  // A failed load is shown by the gate once the session is known, not reported as unhandled.
  loading.catch(() => undefined);
  return loading;
}
let shellModule = loadShell();

/**
 * The shell once its chunk is there (`failed` when it could not be loaded, `retry` tries again).
 * Not React.lazy: a suspended boundary is revealed at the earliest 300 ms after its fallback
 * showed (React's throttle), which every full load would wait for after a fast session check.
 */
function useShell(): { Shell?: ShellComponent; failed: boolean; retry(): void } {
  const [state, setState] = useState<{ Shell?: ShellComponent; failed: boolean }>(() => ({
    Shell: loadedShell,
    failed: false,
  }));
  useEffect(() => {
    if (state.Shell || state.failed) return;
    let live = true;
    shellModule.then(
      (Shell) => live && setState({ Shell, failed: false }),
      () => live && setState({ failed: true }),
    );
    return () => {
      live = false;
    };
  }, [state]);
  const retry = () => {
    shellModule = loadShell();
    setState({ failed: false });
    // The screen's code shares a chunk with the shell, so its load failed too: once the shell is
    // there, the router loads the screen again instead of showing its error.
    shellModule.then(
      () => router.invalidate(),
      () => undefined,
    );
  };
  return { ...state, retry };
}

const loading = (
  <div className="flex min-h-full items-center justify-center">
    <Spinner label={msg.app.loading} />
  </div>
);

/**
 * The sign-in gate (SPEC.md §2): "Loading..." while the session resolves, the login screen in
 * place of any route while signed out (so a shared link opens after sign-in), the shell otherwise.
 */
function AuthGate() {
  const { operator, isPending, unreachable, retry } = useAuth();
  const { Shell, failed, retry: retryShell } = useShell();
  if (isPending) return loading;
  // An outage is not "signed out": the login screen would lose the operator's place for nothing.
  if (!operator && unreachable) return <Unreachable retry={retry} />;
  if (!operator) return <SignedOut />;
  if (failed) return <Unreachable retry={retryShell} />;
  if (!Shell) return loading;
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** A screen's code could not be loaded (server down, or network lost): shown as such, with Retry. */
class ChunkLoadError extends Error {}

const lazyPages: Array<{ preload?: () => Promise<void> }> = [];

/**
 * A screen loaded on first visit. A failed load becomes a ChunkLoadError (so the router does not
 * reload the page into the browser's own error page) and Retry tries the load again.
 */
function lazyPage(load: () => Promise<{ default: React.ComponentType }>) {
  const component = lazyRouteComponent(() =>
    load().catch(() => {
      throw new ChunkLoadError(msg.lists.cannotReach);
    }),
  );
  lazyPages.push(component as { preload?: () => Promise<void> });
  return component;
}

function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
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

/** The session could not be read: "Cannot reach the server" with Retry; the session is kept. */
function Unreachable({ retry }: { retry: () => void }) {
  useDocumentTitle(msg.lists.cannotReach);
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <div className="w-full max-w-md">
        <ErrorState title={msg.lists.cannotReach} message={msg.lists.cannotReachText} onRetry={retry} />
      </div>
    </main>
  );
}

/** The login screen, titled as such (a signed-out tab no longer carries the last screen's title). */
function SignedOut() {
  useDocumentTitle(msg.login.title);
  return <LoginPage />;
}

const rootRoute = createRootRoute({
  component: AuthGate,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteError,
});

const page = <P extends string>(path: P, load: () => Promise<{ default: React.ComponentType }>) =>
  createRoute({ getParentRoute: () => rootRoute, path, component: lazyPage(load), errorComponent: RouteError });

/** The spec's route list (SPEC.md §2), each screen loaded on first visit. */
const routeTree = rootRoute.addChildren([
  page("/", () => import("./dashboard/DashboardPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/customers",
    validateSearch: customersSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./customers/CustomersPage")),
  }),
  page("/customers/add", () => import("./customers/AddCustomerPage")),
  page("/customers/$customerId", () => import("./customers/CustomerDetailPage")),
  page("/customers/$customerId/add-team", () => import("./customers/AddTeamPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/teams",
    validateSearch: teamsSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./teams/TeamsPage")),
  }),
  page("/teams/$teamId", () => import("./teams/TeamDetailPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/users",
    validateSearch: usersSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./users/UsersPage")),
  }),
  page("/users/add", () => import("./users/AddUserPage")),
  page("/users/$userId", () => import("./users/UserDetailPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/skills",
    validateSearch: skillsSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./skills/SkillsPage")),
  }),
  page("/skills/add", () => import("./skills/AddSkillPage")),
  page("/skills/$skillId", () => import("./skills/SkillDetailPage")),
  page("/skills/$skillId/edit", () => import("./skills/EditSkillPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/comments",
    validateSearch: commentsSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./comments/CommentsPage")),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/comments/review",
    validateSearch: reviewSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./comments/ReviewQueuePage")),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/platforms",
    validateSearch: platformsSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./platforms/PlatformsPage")),
  }),
  page("/platforms/add", () => import("./platforms/AddPlatformPage")),
  page("/platforms/$platformId", () => import("./platforms/PlatformDetailPage")),
  page("/platforms/$platformId/edit", () => import("./platforms/EditPlatformPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/prompts",
    validateSearch: promptsSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./prompts/PromptsPage")),
  }),
  page("/prompts/add", () => import("./prompts/AddPromptPage")),
  page("/prompts/$promptId", () => import("./prompts/PromptDetailPage")),
  page("/prompts/$promptId/edit", () => import("./prompts/EditPromptPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/config",
    validateSearch: configSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./config/ConfigPage")),
  }),
  page("/analytics", () => import("./analytics/AnalyticsPage")),
  page("/operators", () => import("./operators/OperatorsPage")),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/audit",
    validateSearch: auditSearch,
    errorComponent: RouteError,
    component: lazyPage(() => import("./audit/AuditPage")),
  }),
]);

export const router = createRouter({
  routeTree,
  defaultPendingComponent: () => <Spinner />,
  defaultPendingMs: 150,
  // The router's default keeps a shown spinner for 500 ms even when the screen is ready sooner:
  // a screen appears as soon as its code is there (its own skeleton covers the data's loading).
  defaultPendingMinMs: 0,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
