import { Children, Fragment, isValidElement, useEffect, type HTMLAttributes, type ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { AlertTriangle, ChevronRight, Lock, RotateCw } from "lucide-react";
import { appMsg, shellMsg } from "../../domain/messages/common";
import type { Target } from "../lib/target";

/**
 * Sets the document title to the given parts, most specific first, then the console's name:
 * `["Acme Corp", "Customers"]` → "Acme Corp · Customers · Pedal Console". Empty parts are skipped.
 */
export function useDocumentTitle(...parts: Array<string | null | undefined>) {
  const title = [...parts.filter((p): p is string => Boolean(p && p.trim())), appMsg.name].join(" · ");
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** Sets the document title while rendered (`useDocumentTitle` for a branch of a component). */
export function DocumentTitle({ parts }: { parts: Array<string | null | undefined> }) {
  useDocumentTitle(...parts);
  return null;
}

/**
 * Page title row: the title (cut once with an ellipsis when too long, full text on hover and for
 * screen readers), an optional badge, subtitle, and actions that stay on one row beside it.
 * It also sets the document title: `title` (or `titleText` when the title is not plain text),
 * then `section` ("Acme Corp · Customers · Pedal Console").
 */
export function PageHeader({
  title,
  titleText,
  section,
  badge,
  subtitle,
  actions,
}: {
  title: ReactNode;
  /** Plain text of the title, for the document title and the hover text. */
  titleText?: string;
  /** The screen family the page belongs to ("Customers"), after the title in the document title. */
  section?: string;
  badge?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const text = titleText ?? (typeof title === "string" ? title : undefined);
  useDocumentTitle(text, section);
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-3">
          <h1 className="min-w-0 truncate text-2xl font-semibold tracking-tight" title={text}>
            {title}
          </h1>
          {badge ? <span className="shrink-0">{badge}</span> : null}
        </div>
        {subtitle ? (
          <div className="mt-1 text-sm text-base-content/70 max-sm:line-clamp-2 max-sm:break-words sm:truncate">
            {subtitle}
          </div>
        ) : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/**
 * The console's card: a bordered panel (`className` adds to it; `as="section"` for a landmark) and
 * its body (`bodyClassName`: spacing and layout). Other attributes (role, aria-*) go on the panel.
 */
export function Card({
  as: Tag = "div",
  className = "",
  bodyClassName = "",
  children,
  ...rest
}: HTMLAttributes<HTMLElement> & { as?: "div" | "section"; bodyClassName?: string }) {
  return (
    <Tag className={`card border border-base-300 bg-base-100 shadow-sm ${className}`} {...rest}>
      <div className={`card-body ${bodyClassName}`}>{children}</div>
    </Tag>
  );
}

/** A summary card: label, big number, optional hint and icon; with `link`, the whole card opens that list. */
export function StatCard({
  label,
  value,
  hint,
  icon,
  link,
}: {
  label: string;
  value: ReactNode;
  hint?: string;
  icon?: ReactNode;
  link?: Target;
}) {
  const body = (
    <div className="card-body h-full flex-row items-center gap-4 p-4 sm:p-5">
      {icon ? (
        <div
          className="hidden shrink-0 rounded-lg bg-primary/10 p-2 text-primary sm:block [&>svg]:h-5 [&>svg]:w-5"
          aria-hidden
        >
          {icon}
        </div>
      ) : null}
      <div className="min-w-0 flex-1">
        <div className="text-sm leading-snug text-base-content/70">{label}</div>
        <div className="min-w-0 text-2xl font-semibold tabular-nums">{value}</div>
        {hint ? <div className="text-xs text-base-content/70">{hint}</div> : null}
      </div>
      {link ? (
        <ChevronRight
          className="h-4 w-4 shrink-0 text-base-content/50 transition-transform group-hover:translate-x-0.5"
          aria-hidden
        />
      ) : null}
    </div>
  );
  return (
    <div className="card min-w-0 border border-base-300 bg-base-100 shadow-sm" role="group" aria-label={label}>
      {link ? (
        <Link {...link} className="group block h-full rounded-box transition-colors hover:bg-base-200/50">
          {body}
        </Link>
      ) : (
        body
      )}
    </div>
  );
}

/** Placeholder of a stat card while loading, same height as the real one. */
export function StatCardSkeleton() {
  return (
    <Card bodyClassName="flex-row items-center gap-4 p-4 sm:p-5" aria-hidden>
      <div className="skeleton hidden h-9 w-9 rounded-lg sm:block" />
      <div className="flex flex-col gap-2">
        <div className="skeleton h-3.5 w-24" />
        <div className="skeleton h-7 w-16" />
      </div>
    </Card>
  );
}

const gridColumns: Record<number, string> = {
  1: "grid-cols-1",
  2: "grid-cols-2",
  3: "grid-cols-1 sm:grid-cols-3",
  4: "grid-cols-2 xl:grid-cols-4",
  5: "grid-cols-2 sm:grid-cols-3 xl:grid-cols-5",
  6: "grid-cols-2 sm:grid-cols-3 xl:grid-cols-6",
};

/** How many cards `children` holds, looking into fragments. */
function countCards(children: ReactNode): number {
  return Children.toArray(children).reduce<number>(
    (n, child) =>
      n +
      (isValidElement<{ children?: ReactNode }>(child) && child.type === Fragment
        ? countCards(child.props.children)
        : 1),
    0,
  );
}

/**
 * Grid of stat cards sized to how many there are (one row at full width, five cards included).
 * `columns`: the number of cards the grid is laid out for, so that it keeps its shape while fewer
 * skeletons stand in for the cards.
 */
export function StatGrid({ children, columns }: { children: ReactNode; columns?: number }) {
  const count = columns ?? countCards(children);
  const layout = gridColumns[count] ?? "grid-cols-2 xl:grid-cols-4";
  // On a phone's two columns an odd last card takes the whole row rather than half of it alone.
  const odd = layout.startsWith("grid-cols-2") ? "max-sm:[&>*:last-child:nth-child(odd)]:col-span-2" : "";
  return <div className={`grid gap-3 sm:gap-4 ${layout} ${odd}`}>{children}</div>;
}

/**
 * What a role that may not open a screen sees there (a URL typed or shared): one statement of it,
 * with no toolbar, no data and no Retry, since retrying cannot help.
 */
export function NotAllowed({ reason, title = shellMsg.lists.notAllowedTitle }: { reason: string; title?: string }) {
  useDocumentTitle(title);
  return (
    <Card role="status" bodyClassName="items-center py-12 text-center" data-testid="not-allowed">
      <Lock className="h-10 w-10 text-base-content/70" aria-hidden />
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="max-w-prose text-sm text-base-content/70">{reason}</p>
    </Card>
  );
}

/** Error view: the spec's title, the server's message and a Retry button. */
export function ErrorState({
  title,
  message,
  onRetry,
  children,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="card border border-error/30 bg-base-100 shadow-sm">
      <div className="card-body items-center py-10 text-center">
        <AlertTriangle className="h-10 w-10 text-error" aria-hidden />
        <h2 className="text-lg font-semibold">{title}</h2>
        {message ? <p className="max-w-prose text-sm text-base-content/70">{message}</p> : null}
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          {onRetry ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={onRetry}>
              <RotateCw className="h-4 w-4" aria-hidden /> {appMsg.retry}
            </button>
          ) : null}
          {children}
        </div>
      </div>
    </div>
  );
}

/** Centered spinner with a visible label. */
export function Spinner({ label = appMsg.loading }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-10 text-base-content/70">
      <span className="loading loading-spinner loading-md" aria-hidden />
      <span>{label}</span>
    </div>
  );
}
