/**
 * The dashboard's sections below the spec's cards (docs/dashboard.md): Needs attention, Trends and
 * Recent activity, each loading, failing (with Retry) and showing on its own.
 */
import type { ComponentProps, ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { auditActionLabels, auditEntityLabels, type AuditAction, type AuditEntityName } from "../../domain/audit";
import type { DashboardAttention } from "../../domain/dashboard";
import { dashboardTrendDays, dashboardTrendRanges } from "../../domain/limits";
import { activityMsg, attentionMsg, trendsMsg } from "../../domain/messages/dashboard";
import { errorMessage } from "../api/client";
import { formatDateTime, formatFullTime, formatNumber, formatRelative, titleCase } from "../components/format";
import { ErrorState, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { SeriesTable, SmallSeriesChart, type SeriesRow } from "../analytics/public";
import { recordPage } from "../lib/record-pages";
import { dashboardActivityQuery, dashboardAttentionQuery, dashboardTrendsQuery } from "./queries";

/** A titled section of the dashboard. */
function Section({
  id,
  title,
  aside,
  children,
}: {
  id: string;
  title: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="mt-8" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

type Item = {
  key: string;
  label: string;
  value: (a: DashboardAttention) => number | null;
  hint?: (a: DashboardAttention) => string | undefined;
  link: NonNullable<ComponentProps<typeof StatCard>["link"]>;
};

/** Each figure of "Needs attention" and the filtered list its link opens (docs/dashboard.md). */
export const attentionItems: Item[] = [
  {
    key: "pending_comments",
    label: attentionMsg.pendingComments,
    value: (a) => a.pending_comments,
    link: { to: "/comments", search: { status: "pending" } },
  },
  {
    key: "pending_prompt_changes",
    label: attentionMsg.pendingChanges,
    value: (a) => a.pending_prompt_changes,
    link: { to: "/reviews" },
  },
  {
    key: "trial_customers",
    label: attentionMsg.trialCustomers,
    value: (a) => a.trial_customers.count,
    hint: (a) =>
      a.trial_customers.oldest
        ? attentionMsg.trialOldest(
            a.trial_customers.oldest.customer_name,
            formatRelative(a.trial_customers.oldest.created_at),
          )
        : undefined,
    link: { to: "/customers", search: { status: "trial" } },
  },
  {
    key: "teams_without_skills",
    label: attentionMsg.teamsWithoutSkills,
    value: (a) => a.teams_without_skills,
    link: { to: "/teams", search: { status: "active", skills: "none" } },
  },
  {
    key: "users_never_signed_in",
    label: attentionMsg.usersNeverSignedIn,
    value: (a) => a.users_never_signed_in,
    link: { to: "/users", search: { signed_in: false } },
  },
  {
    key: "skills_without_prompts",
    label: attentionMsg.skillsWithoutPrompts,
    value: (a) => a.skills_without_prompts,
    link: { to: "/skills", search: { prompts: "none" } },
  },
  {
    key: "prompts_without_platforms",
    label: attentionMsg.promptsWithoutPlatforms,
    value: (a) => a.prompts_without_platforms,
    link: { to: "/prompts", search: { status: "active", platforms: "none" } },
  },
];

/** "Needs attention": a count per kind of record, each opening its list filtered to those records. */
export function AttentionSection() {
  const { data, error, isPending, refetch } = useQuery(dashboardAttentionQuery());
  return (
    <Section
      id="attention"
      title={attentionMsg.title}
      aside={
        data ? (
          <time className="text-xs text-base-content/70" dateTime={data.as_of} title={formatFullTime(data.as_of)}>
            {attentionMsg.asOf(formatDateTime(data.as_of))}
          </time>
        ) : null
      }
    >
      {error ? (
        <ErrorState title={attentionMsg.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <StatGrid>
          {isPending
            ? attentionItems.map((i) => <StatCardSkeleton key={i.key} />)
            : attentionItems
                .filter((i) => i.value(data) !== null)
                .map((i) => {
                  const n = i.value(data) ?? 0;
                  return (
                    <div
                      key={i.key}
                      data-testid={`attention-${i.key}`}
                      data-count={n}
                      // A grid of one: the card fills the row's height, so a card with a hint (the oldest
                      // trial) leaves no ragged row.
                      className={`grid ${n === 0 ? "opacity-70" : ""}`}
                    >
                      <StatCard
                        label={i.label}
                        value={n === 0 ? attentionMsg.none : formatNumber(n)}
                        hint={i.hint?.(data)}
                        link={i.link}
                      />
                    </div>
                  );
                })}
        </StatGrid>
      )}
    </Section>
  );
}

/** One trend: a small chart whose points open their users, and its data as a table of links behind "Data table". */
function Trend({
  id,
  title,
  hint,
  rows,
  labelHeader,
  kind,
  pointLink,
}: {
  id: string;
  title: string;
  hint: string;
  rows: SeriesRow[];
  labelHeader: string;
  kind: "line" | "bar";
  pointLink: (label: string) => UsersLink;
}) {
  const navigate = useNavigate();
  return (
    <div className="card border border-base-300 bg-base-100 shadow-sm" data-testid={id}>
      <div className="card-body gap-2 p-4">
        <h3 className="text-sm font-semibold">{title}</h3>
        <p className="text-xs text-base-content/70">{hint}</p>
        <div className="h-40 w-full" aria-hidden data-testid="chart">
          <SmallSeriesChart
            rows={rows}
            name={trendsMsg.users}
            kind={kind}
            onPoint={(i) => void navigate(pointLink(rows[i].label))}
          />
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer text-base-content/80">{trendsMsg.dataTable}</summary>
          <SeriesTable
            rows={rows}
            caption={title}
            labelHeader={labelHeader}
            valueHeader={trendsMsg.users}
            rowLink={(r, label) => (
              <Link
                {...pointLink(r.label)}
                className="link link-hover"
                aria-label={trendsMsg.openPoint(label, formatNumber(r.value))}
              >
                {label}
              </Link>
            )}
          />
        </details>
      </div>
    </div>
  );
}

/** The users list of one point: `/users` with whole days of last sign-in or of creation. */
type UsersLink = { to: "/users"; search: Record<string, string> };

/** The Monday `YYYY-MM-DD` plus six days: the Sunday ending its week (calendar arithmetic, no time zone). */
function weekEnd(monday: string): string {
  const d = new Date(`${monday}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 6);
  return d.toISOString().slice(0, 10);
}

/** "Trends": sign-ins per day and new users per week over the last 7, 30 or 90 days (`?trends=`). */
export function TrendsSection() {
  const search: { trends?: number } = useSearch({ strict: false });
  const days = dashboardTrendRanges.find((r) => r === String(search.trends)) ?? dashboardTrendDays;
  const navigate = useNavigate();
  const { data, error, isPending, refetch } = useQuery(dashboardTrendsQuery(days));
  const series = (rows: { label: string; users: number }[]) => rows.map((r) => ({ label: r.label, value: r.users }));
  return (
    <Section
      id="trends"
      title={trendsMsg.title}
      aside={
        <div role="group" aria-label={trendsMsg.range} className="join">
          {dashboardTrendRanges.map((r) => (
            <button
              key={r}
              type="button"
              className={`btn join-item btn-sm ${r === days ? "btn-active btn-primary" : ""}`}
              aria-pressed={r === days}
              onClick={() =>
                void navigate({ to: "/", search: r === dashboardTrendDays ? {} : { trends: Number(r) }, replace: true })
              }
            >
              {trendsMsg.rangeOption(r)}
            </button>
          ))}
        </div>
      }
    >
      {error ? (
        <ErrorState title={trendsMsg.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : isPending ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-hidden>
          <div className="skeleton h-56" />
          <div className="skeleton h-56" />
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Trend
            id="trend-sign-ins"
            title={trendsMsg.signIns(String(data.days))}
            hint={`${trendsMsg.signInsHint}. ${trendsMsg.dayHint}`}
            rows={series(data.sign_ins.rows)}
            labelHeader={trendsMsg.day}
            kind="line"
            pointLink={(day) => ({ to: "/users", search: { last_login_from: day, last_login_to: day } })}
          />
          <Trend
            id="trend-new-users"
            title={trendsMsg.newUsers(String(data.days))}
            hint={trendsMsg.weekHint}
            rows={series(data.new_users.rows)}
            labelHeader={trendsMsg.week}
            kind="bar"
            pointLink={(monday) => ({ to: "/users", search: { created_from: monday, created_to: weekEnd(monday) } })}
          />
        </div>
      )}
    </Section>
  );
}

/** "Recent activity": the last 10 audit entries in the audit screen's words, each opening its record. */
export function ActivitySection() {
  const { data, error, isPending, refetch } = useQuery(dashboardActivityQuery());
  return (
    <Section
      id="activity"
      title={activityMsg.title}
      aside={
        data ? (
          <span className="text-xs text-base-content/70">
            {data.scope === "all" ? activityMsg.all : activityMsg.own}
          </span>
        ) : null
      }
    >
      {error ? (
        <ErrorState title={activityMsg.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : isPending ? (
        <div className="flex flex-col gap-2" aria-hidden>
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="skeleton h-10" />
          ))}
        </div>
      ) : data.items.length === 0 ? (
        <p className="text-sm text-base-content/70">{activityMsg.empty}</p>
      ) : (
        <ul className="divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
          {data.items.map((e) => {
            const what = `${auditActionLabels[e.action as AuditAction] ?? titleCase(e.action)} · ${
              auditEntityLabels[e.entity as AuditEntityName] ?? titleCase(e.entity)
            }`;
            const link = e.entity_id ? recordPage[e.entity]?.(e.entity_id) : undefined;
            return (
              <li
                key={e.audit_id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-2 text-sm"
              >
                <span className="min-w-0 break-words">
                  {link ? (
                    <Link {...link} className="link link-hover font-medium">
                      {what}
                    </Link>
                  ) : (
                    <span className="font-medium">{what}</span>
                  )}{" "}
                  <span className="text-base-content/70">{activityMsg.by(e.operator_email ?? activityMsg.system)}</span>
                </span>
                <time
                  className="text-xs text-base-content/70"
                  dateTime={e.created_at}
                  title={formatFullTime(e.created_at)}
                >
                  {formatDateTime(e.created_at)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
