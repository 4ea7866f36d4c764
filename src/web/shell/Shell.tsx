import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate, useRouterState, useSearch } from "@tanstack/react-router";
import {
  ChevronsLeft,
  ChevronsRight,
  Keyboard,
  KeyRound,
  KeySquare,
  LogOut,
  Menu,
  Monitor,
  MonitorSmartphone,
  MonitorX,
  Moon,
  Search,
  ShieldCheck,
  Sun,
  X,
} from "lucide-react";
import { appMsg, shellMsg, shortcutsMsg } from "../../domain/messages/common";
import { useAuth } from "../auth/AuthProvider";
import { passwordMessages } from "../../domain/password-messages";
import { useCan } from "../auth/permissions";
import { titleCase } from "../components/case";
import { Hint, preloadHint } from "../components/Hint";
import { Logo } from "../components/Logo";
import { Menu as MenuButton } from "../components/Menu";
import { Notices, notify } from "../components/overlays";
import { ReauthGate } from "../auth/ReauthGate";
import { setTheme, themeChoices, useTheme } from "../lib/theme";
import { KeyboardProvider, useShortcutsHelp } from "../lib/keyboard";
import { loadCommandPalette } from "../search/public";
import type { NavEntry } from "../lib/routes";
import { adminNavItems, navBadgeHook, navItems } from "./nav";

/** The Change password dialog (and the zod schema it validates with) loads when first opened. */
const ChangePasswordModal = lazy(() =>
  import("../auth/ChangePasswordModal").then((m) => ({ default: m.ChangePasswordModal })),
);

/** The Sessions dialog loads when first opened. */
const SessionsModal = lazy(() => import("../auth/SessionsModal").then((m) => ({ default: m.SessionsModal })));
/** The Two-factor sign-in dialog (with the QR code library) loads when first opened. */
const TwoFactorDialog = lazy(() => import("../auth/TwoFactorSetup").then((m) => ({ default: m.TwoFactorDialog })));

const collapsedKey = "pedal.sidebar.collapsed";

/** SPEC.md §2 "Shell": collapsible sidebar (w-16 / w-64), mobile menu, top bar, user menu. */
export function Shell({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(collapsedKey) === "1");
  // The collapsed sidebar names its icons with hints: their code is fetched as soon as it collapses.
  useEffect(() => {
    if (collapsed) preloadHint();
  }, [collapsed]);
  const [mobileOpen, setMobileOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const { main, admin } = useVisibleNav();
  const { operator } = useAuth();

  useEffect(() => localStorage.setItem(collapsedKey, collapsed ? "1" : "0"), [collapsed]);
  // A new screen closes the phone menu.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setMobileOpen(false);
  }

  return (
    <KeyboardProvider
      goTo={[...main, ...admin]}
      // A nav entry's path comes back as a plain string, which the router's typed `to` does not take.
      onGo={(to) => void navigate({ to } as never)}
    >
      <div className="flex min-h-full">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-base-100 focus:p-2"
        >
          {shellMsg.ui.skipToContent}
        </a>
        <aside
          data-testid="sidebar"
          data-collapsed={collapsed}
          className={`sticky top-0 hidden h-screen shrink-0 flex-col border-r border-base-300 bg-base-100 transition-[width] duration-200 lg:flex ${collapsed ? "w-16" : "w-64"}`}
        >
          <div
            className={`flex h-16 items-center gap-2 border-b border-base-300 ${collapsed ? "justify-center" : "px-4"}`}
          >
            <Logo className="h-8 w-8 shrink-0" />
            {collapsed ? null : <span className="truncate font-semibold">{appMsg.name}</span>}
          </div>
          <NavList collapsed={collapsed} />
          <div className="border-t border-base-300 p-2">
            {collapsed ? (
              <Hint label={shellMsg.ui.expandSidebar}>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm btn-square w-full"
                  onClick={() => setCollapsed(false)}
                  aria-label={shellMsg.ui.expandSidebar}
                  aria-expanded={false}
                >
                  <ChevronsRight className="h-4 w-4" aria-hidden />
                </button>
              </Hint>
            ) : (
              <button
                type="button"
                className="btn btn-ghost btn-sm w-full justify-start"
                onClick={() => setCollapsed(true)}
                aria-label={shellMsg.ui.collapseSidebar}
                aria-expanded
              >
                <ChevronsLeft className="h-4 w-4" aria-hidden />
                <span>{shellMsg.ui.collapse}</span>
              </button>
            )}
          </div>
        </aside>

        <MobileDrawer open={mobileOpen} onClose={() => setMobileOpen(false)} />

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-base-300 bg-base-100/95 px-3 backdrop-blur sm:gap-3 sm:px-6">
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square lg:hidden"
              aria-label={shellMsg.ui.openMenu}
              aria-expanded={mobileOpen}
              onClick={() => setMobileOpen(true)}
            >
              <Menu className="h-5 w-5" aria-hidden />
            </button>
            <GlobalSearch />
            <UserMenu />
          </header>
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full min-w-0 max-w-7xl flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8"
          >
            {children}
          </main>
        </div>
        <Notices />
        <ReauthGate twoFactor={operator?.twoFactorEnabled === true} />
      </div>
    </KeyboardProvider>
  );
}

/**
 * The phone and tablet menu: a modal <dialog>, so the page behind is inert and focus stays in the
 * menu while it is open (Tab cycles through it, Escape closes it, focus returns to the button).
 */
function MobileDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={shellMsg.ui.menu}
      onClose={onClose}
      onClick={(e) => e.target === e.currentTarget && onClose()}
      className="m-0 h-full max-h-none w-64 max-w-[85vw] bg-base-100 p-0 text-base-content shadow-xl backdrop:bg-black/40 lg:hidden"
    >
      {open ? (
        <div className="flex h-full flex-col">
          <div className="flex h-16 items-center gap-2 border-b border-base-300 px-4">
            <Logo className="h-8 w-8" />
            <span className="flex-1 font-semibold">{appMsg.name}</span>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={shellMsg.ui.closeMenu}
              onClick={onClose}
            >
              <X className="h-5 w-5" aria-hidden />
            </button>
          </div>
          <NavList collapsed={false} />
        </div>
      ) : null}
    </dialog>
  );
}

/** The sidebar entries the operator's role sees: the main ones, and the administration ones (admins). */
function useVisibleNav() {
  const isAdmin = useCan("admin");
  const isEditor = useCan("editor");
  return {
    main: navItems.filter((i) => i.need !== "editor" || isEditor),
    admin: isAdmin ? adminNavItems : [],
  };
}

function NavList({ collapsed }: { collapsed: boolean }) {
  const { main, admin } = useVisibleNav();
  return (
    <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
      <NavItems items={main} collapsed={collapsed} />
      {admin.length > 0 ? (
        <>
          <div
            className={`mt-4 mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-base-content/70 ${collapsed ? "sr-only" : ""}`}
          >
            {shellMsg.ui.administration}
          </div>
          <NavItems items={admin} collapsed={collapsed} />
        </>
      ) : null}
    </nav>
  );
}

function NavItems({ items, collapsed }: { items: typeof navItems; collapsed: boolean }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map((entry) => (
        <NavEntryItem key={entry.to} entry={entry} collapsed={collapsed} />
      ))}
    </ul>
  );
}

/** One sidebar entry; one that depends on live data may be hidden for now, or show a count (Reviews). */
function NavEntryItem({ entry: { to, label, icon: Icon }, collapsed }: { entry: NavEntry; collapsed: boolean }) {
  const useBadge = navBadgeHook(to);
  const badge = useBadge();
  if (badge.hidden) return null;
  const count = badge.count ? (
    <span
      className={
        collapsed
          ? "badge badge-warning badge-xs absolute right-1 top-1 px-1 tabular-nums"
          : "badge badge-warning badge-sm ml-auto tabular-nums"
      }
      data-testid="nav-count"
    >
      {badge.count > 99 ? "99+" : badge.count}
      <span className="sr-only"> {shellMsg.reviews.navPendingSuffix}</span>
    </span>
  ) : null;
  return (
    <li>
      {collapsed ? (
        <Hint label={badge.count ? `${label} (${shellMsg.reviews.navCount(badge.count)})` : label}>
          <Link
            to={to}
            activeOptions={{ exact: to === "/" }}
            className="relative flex h-10 items-center justify-center gap-3 rounded-lg text-sm font-medium text-base-content/80 hover:bg-base-200 hover:text-base-content"
            activeProps={{ className: "!bg-primary/10 !text-primary", "aria-current": "page" }}
            aria-label={badge.count ? `${label}, ${shellMsg.reviews.navCount(badge.count)}` : label}
          >
            <Icon className="h-5 w-5 shrink-0" aria-hidden />
            {count}
          </Link>
        </Hint>
      ) : (
        <Link
          to={to}
          activeOptions={{ exact: to === "/" }}
          className="flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium text-base-content/80 hover:bg-base-200 hover:text-base-content"
          activeProps={{ className: "!bg-primary/10 !text-primary", "aria-current": "page" }}
        >
          <Icon className="h-5 w-5 shrink-0" aria-hidden />
          <span className="truncate">{label}</span>
          {count}
        </Link>
      )}
    </li>
  );
}

const CommandPalette = lazy(loadCommandPalette);

/**
 * The top bar's search box (SPEC.md §2 "Shell"): typing in it, clicking it, Enter, or Ctrl/Cmd+K
 * anywhere opens the global search palette with the text typed so far (the palette's code loads
 * on first use, keeping it out of the initial JavaScript).
 */
function GlobalSearch() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const [text, setText] = useState("");
  // Between Ctrl+K and the palette's field taking focus (its code may still be loading), typed
  // characters are caught here and put into the field's text, so none is lost however fast.
  const catching = useRef(false);
  const openNow = useRef(false);
  openNow.current = open;
  const show = () => {
    setUsed(true);
    setOpen(true);
  };
  const close = () => {
    catching.current = false;
    setOpen(false);
    // The next opening starts empty (recent records below), rather than appending to this query.
    setText("");
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setUsed(true);
        if (openNow.current) return close();
        catching.current = true;
        setText("");
        setOpen(true);
        return;
      }
      if (!catching.current || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (e.key.length === 1) {
        e.preventDefault();
        setText((t) => t + e.key);
      } else if (e.key === "Backspace") {
        e.preventDefault();
        setText((t) => t.slice(0, -1));
      }
    };
    // Capture: before any field of the page underneath could take the keystroke.
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
  return (
    <>
      <form
        role="search"
        className="min-w-0 flex-1"
        onSubmit={(e) => {
          e.preventDefault();
          show();
        }}
      >
        <label className="input input-sm w-full max-w-md">
          <Search className="h-4 w-4 shrink-0 opacity-70" aria-hidden />
          <input
            type="search"
            className="min-w-0"
            placeholder={appMsg.searchPlaceholder}
            aria-label={appMsg.searchPlaceholder}
            aria-haspopup="dialog"
            aria-keyshortcuts="Control+K Meta+K"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              show();
            }}
            onClick={show}
            onPointerEnter={() => void loadCommandPalette()}
          />
          <kbd className="kbd kbd-sm hidden sm:inline-flex" aria-hidden>
            {shellMsg.search.shortcut}
          </kbd>
        </label>
      </form>
      {used ? (
        <Suspense fallback={null}>
          <CommandPalette
            open={open}
            value={text}
            onValueChange={setText}
            onClose={close}
            onReady={() => (catching.current = false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

const themeIcons = { system: Monitor, light: Sun, dark: Moon } as const;
const themeLabels = {
  system: shellMsg.ui.themeSystem,
  light: shellMsg.ui.themeLight,
  dark: shellMsg.ui.themeDark,
} as const;

/**
 * The account dialogs of the user menu, each with a page address: `?account=password`,
 * `?account=sessions` or `?account=two-factor` on any screen opens it over that screen, so a
 * colleague can be sent "turn on two-factor here" as a link (docs/identity.md).
 */
const accountDialogs = ["password", "sessions", "two-factor"] as const;
type AccountDialog = (typeof accountDialogs)[number];

/**
 * The account dialog the address names, and how to open (a new history entry: Back closes it) and
 * close it (the entry replaced by the screen without it).
 */
function useAccountDialog() {
  const navigate = useNavigate();
  const search: { account?: unknown } = useSearch({ strict: false });
  const open = accountDialogs.find((d) => d === search.account);
  const show = (dialog: AccountDialog) =>
    void navigate({ to: ".", search: (prev: Record<string, unknown>) => ({ ...prev, account: dialog }) } as never);
  const close = () =>
    void navigate({
      to: ".",
      replace: true,
      search: ({ account: _, ...rest }: Record<string, unknown>) => rest,
    } as never);
  return { open, show, close };
}

/** The user menu: who is signed in, the theme (remembered), Change password, Sessions, API tokens, Two-factor sign-in, Keyboard shortcuts, Sign Out and Sign out everywhere. */
function UserMenu() {
  const { operator, signOut, signOutEverywhere } = useAuth();
  const theme = useTheme();
  const dialog = useAccountDialog();
  const changing = dialog.open === "password";
  const listingSessions = dialog.open === "sessions";
  const twoFactor = dialog.open === "two-factor";
  const showShortcuts = useShortcutsHelp();
  if (!operator) return null;
  const initials = operator.email.slice(0, 2).toUpperCase();
  const roleLabel = titleCase(operator.role);
  return (
    <>
      {changing ? (
        <Suspense fallback={null}>
          <ChangePasswordModal
            open={changing}
            onClose={dialog.close}
            onChanged={() => {
              dialog.close();
              notify(passwordMessages.changed);
            }}
          />
        </Suspense>
      ) : null}
      {listingSessions ? (
        <Suspense fallback={null}>
          <SessionsModal open={listingSessions} onClose={dialog.close} onEndedCurrent={() => void signOut()} />
        </Suspense>
      ) : null}
      {twoFactor ? (
        <Suspense fallback={null}>
          <TwoFactorDialog open={twoFactor} onClose={dialog.close} />
        </Suspense>
      ) : null}
      <MenuButton
        label={shellMsg.ui.userMenu}
        width="w-64"
        buttonClassName="btn btn-ghost btn-sm shrink-0 gap-2 px-2"
        button={
          <>
            <span
              className="flex h-8 w-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-content"
              aria-hidden
            >
              {initials}
            </span>
            <span className="hidden text-sm font-medium sm:inline" data-testid="operator-role">
              {roleLabel}
            </span>
          </>
        }
        header={
          <>
            <span className="block text-xs text-base-content/70">{roleLabel}</span>
            <span className="block truncate text-sm font-medium" data-testid="operator-email" title={operator.email}>
              {operator.email}
            </span>
          </>
        }
        entries={[
          {
            kind: "group",
            label: shellMsg.ui.theme,
            entries: themeChoices.map((choice) => ({
              kind: "radio" as const,
              label: themeLabels[choice],
              icon: themeIcons[choice],
              checked: theme === choice,
              onSelect: () => setTheme(choice),
            })),
          },
          { kind: "separator" },
          { label: passwordMessages.changeTitle, icon: KeyRound, onSelect: () => dialog.show("password") },
          { label: shellMsg.sessions.menu, icon: MonitorSmartphone, onSelect: () => dialog.show("sessions") },
          { kind: "link", label: shellMsg.apiTokens.menu, icon: KeySquare, link: { to: "/account/tokens" } },
          { label: shellMsg.twoFactor.menuEntry, icon: ShieldCheck, onSelect: () => dialog.show("two-factor") },
          { label: shortcutsMsg.title, icon: Keyboard, onSelect: showShortcuts },
          { label: appMsg.signOut, icon: LogOut, onSelect: () => void signOut() },
          { label: appMsg.signOutEverywhere, icon: MonitorX, onSelect: () => void signOutEverywhere() },
        ]}
      />
    </>
  );
}
