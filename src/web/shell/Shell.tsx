import { useEffect, useState, type ReactNode } from "react";
import { Link, useRouterState } from "@tanstack/react-router";
import { ChevronsLeft, ChevronsRight, LogOut, Menu, MonitorX, Search, X } from "lucide-react";
import { msg } from "../../domain/messages";
import { useAuth } from "../auth/AuthProvider";
import { Logo } from "../components/Logo";
import { useCan } from "../auth/permissions";
import { adminNavItems, navItems } from "./nav";

const collapsedKey = "pedal.sidebar.collapsed";

/** SPEC.md §2 "Shell": collapsible sidebar (w-16 / w-64), mobile menu, top bar, user menu. */
export function Shell({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(collapsedKey) === "1");
  const [mobileOpen, setMobileOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  useEffect(() => localStorage.setItem(collapsedKey, collapsed ? "1" : "0"), [collapsed]);
  useEffect(() => setMobileOpen(false), [pathname]);
  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMobileOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [mobileOpen]);

  return (
    <div className="flex min-h-full">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-base-100 focus:p-2">
        Skip to content
      </a>
      <aside
        data-testid="sidebar"
        data-collapsed={collapsed}
        className={`sticky top-0 hidden h-screen shrink-0 flex-col border-r border-base-300 bg-base-100 transition-[width] duration-200 lg:flex ${collapsed ? "w-16" : "w-64"}`}
      >
        <div className={`flex h-16 items-center gap-2 border-b border-base-300 ${collapsed ? "justify-center" : "px-4"}`}>
          <Logo className="h-8 w-8 shrink-0" />
          {collapsed ? null : <span className="truncate font-semibold">{msg.app.name}</span>}
        </div>
        <NavList collapsed={collapsed} />
        <div className="border-t border-base-300 p-2">
          <button
            type="button"
            className={`btn btn-ghost btn-sm w-full ${collapsed ? "btn-square" : "justify-start"}`}
            onClick={() => setCollapsed((v) => !v)}
            aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
            aria-expanded={!collapsed}
          >
            {collapsed ? <ChevronsRight className="h-4 w-4" aria-hidden /> : <ChevronsLeft className="h-4 w-4" aria-hidden />}
            {collapsed ? null : <span>Collapse</span>}
          </button>
        </div>
      </aside>

      {mobileOpen ? (
        <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label="Menu">
          <button type="button" className="absolute inset-0 bg-black/40" aria-label="Close menu" onClick={() => setMobileOpen(false)} />
          <div className="relative flex h-full w-64 flex-col bg-base-100 shadow-xl">
            <div className="flex h-16 items-center gap-2 border-b border-base-300 px-4">
              <Logo className="h-8 w-8" />
              <span className="flex-1 font-semibold">{msg.app.name}</span>
              <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label="Close menu" onClick={() => setMobileOpen(false)}>
                <X className="h-5 w-5" aria-hidden />
              </button>
            </div>
            <NavList collapsed={false} />
          </div>
        </div>
      ) : null}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-base-300 bg-base-100/95 px-4 backdrop-blur sm:px-6">
          <button type="button" className="btn btn-ghost btn-sm btn-square lg:hidden" aria-label="Open menu" onClick={() => setMobileOpen(true)}>
            <Menu className="h-5 w-5" aria-hidden />
          </button>
          <GlobalSearch />
          <UserMenu />
        </header>
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}

function NavList({ collapsed }: { collapsed: boolean }) {
  const isAdmin = useCan("admin");
  return (
    <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
      <NavItems items={navItems} collapsed={collapsed} />
      {isAdmin ? (
        <>
          <div className={`mt-4 mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-base-content/50 ${collapsed ? "sr-only" : ""}`}>Administration</div>
          <NavItems items={adminNavItems} collapsed={collapsed} />
        </>
      ) : null}
    </nav>
  );
}

function NavItems({ items, collapsed }: { items: typeof navItems; collapsed: boolean }) {
  return (
      <ul className="flex flex-col gap-1">
        {items.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              activeOptions={{ exact: to === "/" }}
              className={`flex h-10 items-center gap-3 rounded-lg text-sm font-medium text-base-content/80 hover:bg-base-200 hover:text-base-content ${collapsed ? "justify-center" : "px-3"}`}
              activeProps={{ className: "!bg-primary/10 !text-primary", "aria-current": "page" }}
              title={collapsed ? label : undefined}
              aria-label={collapsed ? label : undefined}
            >
              <Icon className="h-5 w-5 shrink-0" aria-hidden />
              {collapsed ? null : <span className="truncate">{label}</span>}
            </Link>
          </li>
        ))}
      </ul>
  );
}

/** The spec's top-bar search box; the spec leaves it without behaviour. */
function GlobalSearch() {
  return (
    <form role="search" className="flex-1" onSubmit={(e) => e.preventDefault()}>
      <label className="input input-sm w-full max-w-md">
        <Search className="h-4 w-4 opacity-60" aria-hidden />
        <input type="search" placeholder={msg.app.searchPlaceholder} aria-label={msg.app.searchPlaceholder} />
      </label>
    </form>
  );
}

function UserMenu() {
  const { operator, signOut, signOutEverywhere } = useAuth();
  if (!operator) return null;
  const initials = operator.email.slice(0, 2).toUpperCase();
  const roleLabel = operator.role.charAt(0).toUpperCase() + operator.role.slice(1);
  return (
    <div className="dropdown dropdown-end">
      <div tabIndex={0} role="button" className="btn btn-ghost btn-sm gap-2 px-2" aria-label="User menu" aria-haspopup="menu">
        <div className="avatar avatar-placeholder">
          <div className="w-8 rounded-full bg-primary text-primary-content">
            <span className="text-xs font-semibold">{initials}</span>
          </div>
        </div>
        <span className="hidden text-sm font-medium sm:inline" data-testid="operator-role">{roleLabel}</span>
      </div>
      <ul tabIndex={0} role="menu" className="menu dropdown-content z-50 mt-2 w-64 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg">
        <li className="menu-title px-3 py-2" role="none">
          <span className="block text-xs font-normal text-base-content/60">{roleLabel}</span>
          <span className="block truncate text-sm font-medium text-base-content" data-testid="operator-email">{operator.email}</span>
        </li>
        <li role="none">
          <button type="button" role="menuitem" onClick={() => void signOut()}>
            <LogOut className="h-4 w-4" aria-hidden /> {msg.app.signOut}
          </button>
        </li>
        <li role="none">
          <button type="button" role="menuitem" onClick={() => void signOutEverywhere()}>
            <MonitorX className="h-4 w-4" aria-hidden /> {msg.app.signOutEverywhere}
          </button>
        </li>
      </ul>
    </div>
  );
}
