import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, CircleDot, type LucideIcon } from "lucide-react";
import { uiMsg } from "../../domain/messages/kit";
import { ActionBar, type Action } from "./actions";
import { titleCase } from "./case";
import { formatNumber } from "./format";
import { Truncate } from "./text";
import { TargetLink } from "./TargetLink";
import type { Target } from "../lib/target";
import { Card, StatCard, StatGrid } from "./ui";

/** A titled card section of a detail page; its actions as a node, or declared (`actionBar`, an `ActionBar`). */
export function Section({
  title,
  actions: node,
  actionBar,
  children,
  className = "",
}: {
  title: string;
  actions?: ReactNode;
  actionBar?: Array<Action | false | null | undefined>;
  children: ReactNode;
  className?: string;
}) {
  const actions = actionBar ? <ActionBar actions={actionBar} /> : node;
  return (
    <Card as="section" className={className} bodyClassName="gap-4 p-5" aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{title}</h2>
        {actions ? <div className="flex gap-2">{actions}</div> : null}
      </div>
      {children}
    </Card>
  );
}

/** One label/value pair of a record's information (`mono`: an id). */
export type InfoItem = { label: string; value: ReactNode; mono?: boolean };

/** Label/value pairs of a record's information panel. */
export function InfoList({ items, narrow }: { items: InfoItem[]; narrow?: boolean }) {
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

/** A record's information panel: a `Section` holding its `InfoList`. */
export function InfoSection({
  title,
  items,
  narrow,
  className,
}: {
  title: string;
  items: InfoItem[];
  narrow?: boolean;
  className?: string;
}) {
  return (
    <Section title={title} className={className}>
      <InfoList items={items} narrow={narrow} />
    </Section>
  );
}

/** Skeleton of an add or edit page: a form card with its fields, shaped like the form it becomes. */
export function FormSkeleton({ fields = 4 }: { fields?: number }) {
  return (
    <div aria-hidden className="mx-auto w-full max-w-2xl">
      <Card bodyClassName="gap-5">
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
      </Card>
    </div>
  );
}

/** Skeleton of a detail page's header, cards and a panel, shaped like the real page. */
export function DetailSkeleton() {
  return (
    <div aria-hidden className="flex flex-col gap-6">
      <div className="skeleton h-8 w-64" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="skeleton h-24" />
        ))}
      </div>
      <div className="skeleton h-40" />
    </div>
  );
}

/**
 * A back link ("Back to Customers", "Back to Acme Corp"): one line, the name cut with an ellipsis
 * when long (full text on hover). It never marks itself as the current page.
 */
export function BackLink({ label, ...target }: Target & { label: string }) {
  return (
    <TargetLink
      {...target}
      className="btn btn-ghost btn-sm -ml-2 mb-4 max-w-full justify-start gap-1 px-2"
      title={label}
    >
      <ArrowLeft className="h-4 w-4 shrink-0" aria-hidden />
      <span className="min-w-0 truncate">{label}</span>
    </TargetLink>
  );
}

/**
 * One card atop a record's page: a `count` (formatted, "1,204"), a `link` to another record (its
 * name, `StatLink`), a word (`text`, `StatText`), or another `value`.
 */
export type RecordStat = {
  label: string;
  icon: LucideIcon;
  count?: number;
  link?: Target & { text: string };
  text?: string;
  value?: ReactNode;
};

/** The card of a record's status ("Status", title-cased). */
export const statusStat = (status: string): RecordStat => ({ label: uiMsg.status, icon: CircleDot, text: status });

/** The cards atop a record's page (SPEC.md §2 customer, team, user and skill pages), declared as data. */
export function RecordStats({ stats }: { stats: RecordStat[] }) {
  return (
    <StatGrid>
      {stats.map(({ label, icon: Icon, count, link, text, value }) => (
        <StatCard
          key={label}
          label={label}
          value={
            count !== undefined ? (
              formatNumber(count)
            ) : link ? (
              <StatLink {...link} />
            ) : text !== undefined ? (
              <StatText text={text} />
            ) : (
              value
            )
          }
          icon={<Icon className="h-6 w-6" />}
        />
      ))}
    </StatGrid>
  );
}

/** A card's value that opens another record (a team's or user's customer): its name, two lines at most. */
export function StatLink({ text, ...target }: Target & { text: string }) {
  return (
    <Link {...target} className="block min-w-0 text-lg leading-snug hover:text-primary hover:underline">
      <Truncate text={text} lines={2} />
    </Link>
  );
}

/** A card's value that is a word (a status), title-cased and smaller than a count. */
export function StatText({ text }: { text: string }) {
  return <span className="text-lg">{titleCase(text)}</span>;
}
