import { useQuery } from "@tanstack/react-query";
import { Activity, Building2, User, UsersRound } from "lucide-react";
import { limits, msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { formatNumber } from "../components/format";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { dashboardStatsQuery } from "./queries";

/**
 * SPEC.md §2 "/ Dashboard": Total Customers, Total Users, Total Teams, and the active-users figure;
 * each card opens its list (Active Users: the users who have signed in at least once).
 */
export default function DashboardPage() {
  const { data, error, isPending, refetch } = useQuery(dashboardStatsQuery());
  return (
    <>
      <PageHeader title={msg.dashboard.title} />
      {error ? (
        <ErrorState title={msg.dashboard.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <StatGrid>
          {isPending ? (
            Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
          ) : (
            <>
              <StatCard
                label={msg.dashboard.totalCustomers}
                value={formatNumber(data.total_customers)}
                icon={<Building2 className="h-6 w-6" />}
                link={{ to: "/customers" }}
              />
              <StatCard
                label={msg.dashboard.totalUsers}
                value={formatNumber(data.total_users)}
                icon={<User className="h-6 w-6" />}
                link={{ to: "/users" }}
              />
              <StatCard
                label={msg.dashboard.totalTeams}
                value={formatNumber(data.total_teams)}
                icon={<UsersRound className="h-6 w-6" />}
                link={{ to: "/teams" }}
              />
              <StatCard
                label={msg.dashboard.activeUsers}
                value={formatNumber(data.active_users)}
                hint={msg.dashboard.activeUsersHint}
                icon={<Activity className="h-6 w-6" />}
                link={{ to: "/users", search: { signed_in: true } }}
              />
            </>
          )}
        </StatGrid>
      )}
    </>
  );
}
