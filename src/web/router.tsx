import { lazy, Suspense, useEffect, useState } from "react";
import { createRootRoute, createRoute, createRouter, Outlet, redirect } from "@tanstack/react-router";
import { appMsg, loginMsg, shellMsg } from "../domain/messages/common";
import { useAuth } from "./auth/AuthProvider";
import { ErrorState, Spinner, useDocumentTitle } from "./components/ui";
import { features } from "./lib/features";
import { routeKit, RouteError, type AppRoute } from "./lib/routes";
import { searchSchema, text } from "./lib/url-search";
import { LoginPage } from "./login/LoginPage";
import { NotFoundPage } from "./misc/NotFoundPage";

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
function useShell(): { Shell?: ShellComponent; failed: boolean; retry: () => void } {
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

/** REQUIRE_MFA's setup screen (with the QR code library), loaded only for the operators it holds. */
const TwoFactorRequired = lazy(() => import("./auth/TwoFactorSetup").then((m) => ({ default: m.TwoFactorRequired })));

const loading = (
  <div className="flex min-h-full items-center justify-center">
    <Spinner label={appMsg.loading} />
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
  // REQUIRE_MFA: nothing but the setup (and Sign out) until two-factor is on.
  if (operator.mfaSetupRequired)
    return (
      <Suspense fallback={loading}>
        <TwoFactorRequired />
      </Suspense>
    );
  if (failed) return <Unreachable retry={retryShell} />;
  if (!Shell) return loading;
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** The session could not be read: "Cannot reach the server" with Retry; the session is kept. */
function Unreachable({ retry }: { retry: () => void }) {
  useDocumentTitle(shellMsg.lists.cannotReach);
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <div className="w-full max-w-md">
        <ErrorState title={shellMsg.lists.cannotReach} message={shellMsg.lists.cannotReachText} onRetry={retry} />
      </div>
    </main>
  );
}

/** The login screen, titled as such (a signed-out tab no longer carries the last screen's title). */
function SignedOut() {
  useDocumentTitle(loginMsg.title);
  return <LoginPage />;
}

const rootRoute = createRootRoute({
  component: AuthGate,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteError,
});

const screens = routeKit(rootRoute);

/**
 * `/login` (and `/login?redirect=/users`): the address people type or bookmark to sign in. The
 * sign-in screen shows wherever a signed-out operator goes and lands them there, so `/login` only
 * passes on to `redirect` (a path of this console) or the dashboard: signed out, the sign-in
 * screen shows there; signed in, that screen opens.
 */
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login",
  validateSearch: searchSchema({ redirect: text(2_000) }),
  beforeLoad: ({ search }) => {
    // Only a path of this console: never `//host` or a URL elsewhere.
    const wanted = (search as { redirect?: string }).redirect;
    const to = wanted && /^\/(?![/\\])/.test(wanted) ? wanted : "/";
    // The router's way to redirect before a route loads is to throw its redirect.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw redirect({ href: to, replace: true });
  },
});

/**
 * The spec's route list (SPEC.md §2): each feature declares its screens and their URL parameters
 * in its own `routes.ts`, found by lib/features.ts.
 */
const routeTree = rootRoute.addChildren([
  loginRoute,
  ...(features.flatMap((f) => f.routes(screens)) as AppRoute[]),
] as AppRoute[]);

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
