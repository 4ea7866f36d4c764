import type { ReactNode } from "react";

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
          <dt className="text-xs font-medium uppercase tracking-wide text-base-content/60">{item.label}</dt>
          <dd className={`mt-1 break-words text-sm ${item.mono ? "font-mono text-xs" : ""}`}>{item.value}</dd>
        </div>
      ))}
    </dl>
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
