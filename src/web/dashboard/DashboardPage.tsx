import { useQuery } from "@tanstack/react-query";
import type { ComponentProps } from "react";
import { Activity, Building2, User, UsersRound, type LucideIcon } from "lucide-react";
import type { DashboardStats } from "../../domain/dashboard";
import { dashboardMsg } from "../../domain/messages/dashboard";
import { limits } from "../../domain/messages/kit";
import { errorMessage } from "../api/client";
import { formatNumber } from "../components/format";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { dashboardStatsQuery } from "./queries";
import { ActivitySection, AttentionSection, TrendsSection } from "./sections";

/** The four cards, each opening its list. */
const cards: {
  label: string;
  icon: LucideIcon;
  value: keyof DashboardStats;
  hint?: string;
  link: ComponentProps<typeof StatCard>["link"];
}[] = [
  { label: dashboardMsg.totalCustomers, icon: Building2, value: "total_customers", link: { to: "/customers" } },
  { label: dashboardMsg.totalUsers, icon: User, value: "total_users", link: { to: "/users" } },
  { label: dashboardMsg.totalTeams, icon: UsersRound, value: "total_teams", link: { to: "/teams" } },
  {
    label: dashboardMsg.signedInUsers,
    icon: Activity,
    value: "active_users",
    link: { to: "/users", search: { signed_in: true } },
  },
];

/**
 * SPEC.md §2 "/ Dashboard": Total Customers, Total Users, Total Teams, and the active-users figure;
 * each card opens its list (Signed in at least once: the users who have signed in). Below them
 * the console's own sections (docs/dashboard.md): Needs attention, Trends, Recent activity.
 */
export default function DashboardPage() {
  const { data, error, isPending, refetch } = useQuery(dashboardStatsQuery());
  return (
    <>
      <PageHeader title={dashboardMsg.title} />
      {error ? (
        <ErrorState title={dashboardMsg.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <StatGrid>
          {isPending
            ? Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
            : cards.map(({ label, icon: Icon, value, hint, link }) => (
                <StatCard
                  key={label}
                  label={label}
                  value={formatNumber(data[value])}
                  hint={hint}
                  icon={<Icon className="h-6 w-6" />}
                  link={link}
                />
              ))}
        </StatGrid>
      )}
      <AttentionSection />
      <TrendsSection />
      <ActivitySection />
    </>
  );
}
