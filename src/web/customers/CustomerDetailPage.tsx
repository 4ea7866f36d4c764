import { useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, Pencil, Plus, Settings, User, UserCheck, UsersRound } from "lucide-react";
import type { CustomerDetail } from "../../domain/customers";
import { splitDomains } from "../../domain/domains";
import { msg } from "../../domain/messages";
import { ActionBar, historyAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { InfoList, RecordStats, Section } from "../components/detail";
import { notify } from "../components/overlays";
import { DateText, Muted } from "../components/text";
import { RecordHeader, RecordPage } from "../components/RecordPage";
import { CustomerTeamTable } from "../teams/public";
import { UserTable } from "../users/public";
import { customerRecord } from "./CustomerForm";
import { customerQuery, useSetCustomerStatus } from "./queries";

/** SPEC.md §2 "/customers/{customerId}". */
export default function CustomerDetailPage() {
  const { customerId } = useParams({ from: "/customers/$customerId" });
  return (
    <RecordPage query={customerQuery(customerId)} kind={customerRecord}>
      {(customer) => <CustomerView customer={customer} />}
    </RecordPage>
  );
}

function CustomerView({ customer }: { customer: CustomerDetail }) {
  const customerId = customer.customer_id;
  const setStatus = useSetCustomerStatus(customerId);
  const archived = customer.status === "inactive";
  const name = customer.customer_name.trim() || msg.fallbacks.unnamedCompany;
  const toggle = () =>
    setStatus.mutate(archived ? "active" : "inactive", {
      onSuccess: () => notify(archived ? msg.customers.unarchived : msg.customers.archived),
    });
  const domains = splitDomains(customer.valid_domains);

  return (
    <>
      <RecordHeader
        back={customerRecord.list}
        title={name}
        section={msg.nav.customers}
        badge={<StatusBadge kind="customer" status={customer.status} />}
        actions={
          <ActionBar
            actions={[
              historyAction("customer", customerId),
              { label: msg.config.openConfig, icon: Settings, to: "/config", search: { customer: customerId } },
              {
                label: msg.edit.edit,
                icon: Pencil,
                need: "editor",
                to: "/customers/$customerId/edit",
                params: { customerId },
              },
              {
                label: archived ? "Unarchive" : "Archive",
                icon: archived ? ArchiveRestore : Archive,
                tone: archived ? "primary" : "default",
                need: "editor",
                primary: true,
                busy: setStatus.isPending,
                onClick: toggle,
              },
            ]}
          />
        }
        error={setStatus.error}
      />

      <RecordStats
        stats={[
          { label: "Total Users", icon: User, count: customer.stats.total_users },
          { label: "Active Users", icon: UserCheck, count: customer.stats.active_users },
          { label: "Total Teams", icon: UsersRound, count: customer.stats.total_teams },
          { label: "Active Teams", icon: UsersRound, count: customer.stats.active_teams },
        ]}
      />

      <div className="mt-6 flex flex-col gap-6">
        <Section title="Customer Information">
          <InfoList
            items={[
              { label: "Customer ID", value: customer.customer_id, mono: true },
              {
                label: "Valid Domains",
                value: domains.length ? (
                  <span className="flex flex-wrap gap-1.5">
                    {domains.map((d) => (
                      <span key={d} className="badge badge-ghost badge-sm max-w-full truncate font-mono" title={d}>
                        {d}
                      </span>
                    ))}
                  </span>
                ) : (
                  <Muted>{msg.customers.noDomains}</Muted>
                ),
              },
              { label: "Created", value: <DateText iso={customer.created_at} withTime /> },
              { label: "Last Updated", value: <DateText iso={customer.updated_at} withTime /> },
            ]}
          />
        </Section>

        <Section title="Users">
          <UserTable filter={{ customer_id: customerId }} label="Users" />
        </Section>

        <Section
          title="Teams"
          actions={
            <ActionBar
              actions={[
                {
                  label: "Add Team",
                  icon: Plus,
                  tone: "primary",
                  need: "editor",
                  primary: true,
                  to: "/customers/$customerId/add-team",
                  params: { customerId },
                },
              ]}
            />
          }
        >
          <CustomerTeamTable customerId={customerId} />
        </Section>
      </div>
    </>
  );
}
