import type { ReactNode } from "react";
import { AlertTriangle, RotateCw } from "lucide-react";
import { msg } from "../../domain/messages";

/** Page title row with optional subtitle and actions on the right. */
export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold tracking-tight">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-base-content/70">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A summary card: label, big number, optional hint and icon. */
export function StatCard({ label, value, hint, icon }: { label: string; value: ReactNode; hint?: string; icon?: ReactNode }) {
  return (
    <div className="card border border-base-300 bg-base-100 shadow-sm" role="group" aria-label={label}>
      <div className="card-body flex-row items-center gap-4 p-4 sm:p-5">
        {icon ? <div className="hidden rounded-lg bg-primary/10 p-2.5 text-primary sm:block" aria-hidden>{icon}</div> : null}
        <div className="min-w-0">
          <div className="text-sm text-base-content/70">{label}</div>
          <div className="text-2xl font-semibold tabular-nums">{value}</div>
          {hint ? <div className="text-xs text-base-content/60">{hint}</div> : null}
        </div>
      </div>
    </div>
  );
}

/** Placeholder of a stat card while loading, same height as the real one. */
export function StatCardSkeleton() {
  return (
    <div className="card border border-base-300 bg-base-100 shadow-sm" aria-hidden>
      <div className="card-body flex-row items-center gap-4 p-4 sm:p-5">
        <div className="skeleton hidden h-11 w-11 rounded-lg sm:block" />
        <div className="flex flex-col gap-2">
          <div className="skeleton h-3.5 w-24" />
          <div className="skeleton h-7 w-16" />
        </div>
      </div>
    </div>
  );
}

/** Grid of stat cards that keeps its shape between loading and loaded. */
export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">{children}</div>;
}

/** Error view: the spec's title, the server's message and a Retry button. */
export function ErrorState({ title, message, onRetry, children }: { title: string; message?: string; onRetry?: () => void; children?: ReactNode }) {
  return (
    <div role="alert" className="card border border-error/30 bg-base-100 shadow-sm">
      <div className="card-body items-center py-10 text-center">
        <AlertTriangle className="h-10 w-10 text-error" aria-hidden />
        <h2 className="text-lg font-semibold">{title}</h2>
        {message ? <p className="max-w-prose text-sm text-base-content/70">{message}</p> : null}
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          {onRetry ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={onRetry}>
              <RotateCw className="h-4 w-4" aria-hidden /> {msg.app.retry}
            </button>
          ) : null}
          {children}
        </div>
      </div>
    </div>
  );
}

/** Centered spinner with a visible label. */
export function Spinner({ label = msg.app.loading }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-10 text-base-content/70">
      <span className="loading loading-spinner loading-md" aria-hidden />
      <span>{label}</span>
    </div>
  );
}
