import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, ArrowLeft, Plus, User, UserCheck, UsersRound } from "lucide-react";
import { msg } from "../../domain/messages";
import { ApiError, errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { HistoryLink } from "../audit/HistoryLink";
import { StatusBadge } from "../components/badges";
import { DetailSkeleton, InfoList, Section } from "../components/detail";
import { formatDateTime, formatNumber } from "../components/format";
import { SuccessBanner, useBanner } from "../components/overlays";
import { ErrorState, PageHeader, StatCard, StatGrid } from "../components/ui";
import { CustomerTeamTable } from "../teams/TeamTable";
import { UserTable } from "../users/UserTable";
import { customerQuery, useSetCustomerStatus } from "./queries";

/** Splits the free-text valid_domains (one per line or comma-separated) into domains. */
function domainsOf(text: string | null): string[] {
  return (text ?? "").split(/[\n,]+/).map((d) => d.trim()).filter(Boolean);
}

/** SPEC.md §2 "/customers/{customerId}". */
export default function CustomerDetailPage() {
  const { customerId } = useParams({ from: "/customers/$customerId" });
  const { data: customer, error, isPending, refetch } = useQuery(customerQuery(customerId));
  const setStatus = useSetCustomerStatus(customerId);
  const banner = useBanner();
  const canEdit = useCan("editor");
  const isAdmin = useCan("admin");

  if (isPending) return <DetailSkeleton />;
  if (error || !customer) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <ErrorState title={missing ? msg.customers.notFound : msg.customers.loadOneError} message={missing ? undefined : errorMessage(error)} onRetry={missing ? undefined : () => void refetch()}>
        <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers" className="btn btn-ghost btn-sm">Back to Customers</Link>
      </ErrorState>
    );
  }

  const archived = customer.status === "inactive";
  const toggle = () =>
    setStatus.mutate(archived ? "active" : "inactive", {
      onSuccess: () => banner.show(archived ? msg.customers.unarchived : msg.customers.archived),
    });
  const domains = domainsOf(customer.valid_domains);

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers" className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Customers
      </Link>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {customer.customer_name || msg.fallbacks.unnamedCompany}
            <StatusBadge kind="customer" status={customer.status} />
          </span>
        }
        actions={
          <>
            {isAdmin ? <HistoryLink entity="customer" id={customerId} /> : null}
            {canEdit ? (
              <button type="button" className={`btn btn-sm ${archived ? "btn-primary" : "btn-outline"}`} onClick={toggle} disabled={setStatus.isPending}>
                {setStatus.isPending ? <span className="loading loading-spinner loading-xs" aria-hidden /> : archived ? <ArchiveRestore className="h-4 w-4" aria-hidden /> : <Archive className="h-4 w-4" aria-hidden />}
                {archived ? "Unarchive" : "Archive"}
              </button>
            ) : null}
          </>
        }
      />
      <SuccessBanner message={banner.message} />
      {setStatus.error ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(setStatus.error)}</div> : null}

      <StatGrid>
        <StatCard label="Total Users" value={formatNumber(customer.stats.total_users)} icon={<User className="h-6 w-6" />} />
        <StatCard label="Active Users" value={formatNumber(customer.stats.active_users)} icon={<UserCheck className="h-6 w-6" />} />
        <StatCard label="Total Teams" value={formatNumber(customer.stats.total_teams)} icon={<UsersRound className="h-6 w-6" />} />
        <StatCard label="Active Teams" value={formatNumber(customer.stats.active_teams)} icon={<UsersRound className="h-6 w-6" />} />
      </StatGrid>

      <div className="mt-6 flex flex-col gap-6">
        <Section title="Customer Information">
          <InfoList
            items={[
              { label: "Customer ID", value: customer.customer_id, mono: true },
              {
                label: "Valid Domains",
                value: domains.length ? (
                  <span className="flex flex-wrap gap-1.5">{domains.map((d) => <span key={d} className="badge badge-ghost badge-sm font-mono">{d}</span>)}</span>
                ) : (
                  <span className="text-base-content/60">{msg.customers.noDomains}</span>
                ),
              },
              { label: "Created", value: formatDateTime(customer.created_at) },
              { label: "Last Updated", value: formatDateTime(customer.updated_at) },
            ]}
          />
        </Section>

        <Section title="Users">
          <UserTable filter={{ customer_id: customerId }} label="Users" />
        </Section>

        <Section
          title="Teams"
          actions={
            canEdit ? (
              <Link to="/customers/$customerId/add-team" params={{ customerId }} className="btn btn-primary btn-sm">
                <Plus className="h-4 w-4" aria-hidden /> Add Team
              </Link>
            ) : null
          }
        >
          <CustomerTeamTable customerId={customerId} />
        </Section>
      </div>
    </>
  );
}
