import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { ApiError, errorMessage } from "../api/client";
import { DocumentTitle, ErrorState } from "./ui";

/** A titled card section of a detail page. */
export function Section({ title, actions, children, className = "" }: { title: string; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`card border border-base-300 bg-base-100 shadow-sm ${className}`} aria-label={title}>
      <div className="card-body gap-4 p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold">{title}</h2>
          {actions ? <div className="flex gap-2">{actions}</div> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

/** Label/value pairs of a record's information panel. */
export function InfoList({ items, narrow }: { items: Array<{ label: string; value: ReactNode; mono?: boolean }>; narrow?: boolean }) {
  return (
    <dl className={`grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2 ${narrow ? "xl:grid-cols-1" : ""}`}>
      {items.map((item) => (
        <div key={item.label} className="min-w-0">
          <dt className="text-xs font-medium uppercase tracking-wide text-base-content/70">{item.label}</dt>
          <dd className={`mt-1 break-words text-sm ${item.mono ? "font-mono text-xs" : ""}`}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Skeleton of an add or edit page: a form card with its fields, shaped like the form it becomes. */
export function FormSkeleton({ fields = 4 }: { fields?: number }) {
  return (
    <div aria-hidden className="mx-auto w-full max-w-2xl">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5">
          <div className="skeleton h-7 w-48" />
          {Array.from({ length: fields }, (_, i) => (
            <div key={i} className="flex flex-col gap-1.5">
              <div className="skeleton h-4 w-28" />
              <div className="skeleton h-10 w-full" />
            </div>
          ))}
          <div className="flex justify-end gap-2 pt-2">
            <div className="skeleton h-10 w-20" />
            <div className="skeleton h-10 w-32" />
          </div>
        </div>
      </div>
    </div>
  );
}

/** Skeleton of a detail page's header, cards and a panel, shaped like the real page. */
export function DetailSkeleton() {
  return (
    <div aria-hidden className="flex flex-col gap-6">
      <div className="skeleton h-8 w-64" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => <div key={i} className="skeleton h-24" />)}
      </div>
      <div className="skeleton h-40" />
    </div>
  );
}

/**
 * A back link ("Back to Customers", "Back to Acme Corp"): one line, the name cut with an ellipsis
 * when long (full text on hover). It never marks itself as the current page.
 */
export function BackLink({ to, params, label }: { to: string; params?: Record<string, string>; label: string }) {
  return (
    <Link
      to={to as "/"}
      params={params as never}
      activeOptions={{ exact: true }}
      activeProps={{ "aria-current": undefined }}
      className="btn btn-ghost btn-sm -ml-2 mb-4 max-w-full justify-start gap-1 px-2"
      title={label}
    >
      <ArrowLeft className="h-4 w-4 shrink-0" aria-hidden />
      <span className="min-w-0 truncate">{label}</span>
    </Link>
  );
}

type NotFound = {
  /** The heading ("Customer not found", or the spec's "Error loading team"). */
  title: string;
  /** A line under it ("Team not found"). */
  message?: string;
};

/**
 * Every detail page's states from one place: the skeleton while loading, the not-found view on a
 * 404 (no Retry: it cannot help), the error view with the server's message and Retry otherwise, each with the back link and
 * a document title ("Customer not found · Customers · Pedal Console"); then `children` with the data.
 */
export function DetailScaffold<T>({ query, section, errorTitle, notFound, back, skeleton, children }: {
  query: Pick<UseQueryResult<T>, "data" | "error" | "isPending" | "refetch">;
  /** The screen family, for the document title ("Customers"). */
  section: string;
  /** The spec's error title ("Error loading customer"). */
  errorTitle: string;
  notFound: NotFound;
  /** Where the error views lead back to. */
  back: { to: string; label: string; params?: Record<string, string> };
  /** What shows while loading: the detail page's skeleton unless the page is a form (FormSkeleton). */
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { data, error, isPending, refetch } = query;
  const missing = error instanceof ApiError && error.status === 404;
  // The title is set here only while there is no record: with one, the page's header names it
  // ("Summarise tickets · Prompts · Pedal Console"), and a title set here would replace it.
  if (isPending) return <><DocumentTitle parts={[section]} />{skeleton ?? <DetailSkeleton />}</>;
  // Data already shown stays while a background refresh fails.
  if (data !== undefined) return <>{children(data)}</>;
  const retry = () => void refetch();
  return (
    <>
    <DocumentTitle parts={[missing ? notFound.title : errorTitle, section]} />
    <ErrorState
      title={missing ? notFound.title : errorTitle}
      message={missing ? notFound.message : errorMessage(error) || notFound.message}
      // Retry is for failures that can pass: a record that does not exist will not appear.
      onRetry={missing ? undefined : retry}
    >
      <Link to={back.to as "/"} params={back.params as never} activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost btn-sm">{back.label}</Link>
    </ErrorState>
    </>
  );
}
