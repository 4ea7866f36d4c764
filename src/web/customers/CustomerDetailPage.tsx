import { useParams } from "@tanstack/react-router";
import { Plus, Settings, Upload, User, UserCheck, UsersRound } from "lucide-react";
import type { CustomerDetail } from "../../domain/customers";
import { splitDomains } from "../../domain/domains";
import { importMsg } from "../../domain/import-messages";
import { configMsg } from "../../domain/messages/config";
import { customersMsg } from "../../domain/messages/customers";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { activeOrInactive, archiveAction, editAction, historyAction, mainAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { InfoSection, Section, type RecordStat } from "../components/detail";
import { DateText, Muted } from "../components/text";
import { RecordPage } from "../components/RecordPage";
import { CustomerTeamTable } from "../teams/public";
import { UserTable } from "../users/public";
import { customerRecord } from "./CustomerForm";
import { DirectorySection } from "./DirectorySection";
import { customerQuery, useSetCustomerStatus } from "./queries";

/** The customer's cards: its users and teams, all and active. */
const customerStats = (customer: CustomerDetail): RecordStat[] => [
  { label: "Total Users", icon: User, count: customer.stats.total_users },
  { label: "Active Users", icon: UserCheck, count: customer.stats.active_users },
  { label: "Total Teams", icon: UsersRound, count: customer.stats.total_teams },
  { label: "Active Teams", icon: UsersRound, count: customer.stats.active_teams },
];

/** SPEC.md §2 "/customers/{customerId}". */
export default function CustomerDetailPage() {
  const { customerId } = useParams({ from: "/customers/$customerId" });
  const setStatus = useSetCustomerStatus(customerId);
  return (
    <RecordPage
      query={customerQuery(customerId)}
      kind={customerRecord}
      header={(customer) => {
        const archived = customer.status === "inactive";
        return {
          title: customer.customer_name.trim() || fallbacksMsg.unnamedCompany,
          badge: <StatusBadge kind="customer" status={customer.status} />,
          actions: [
            historyAction("customer", customerId),
            { label: configMsg.openConfig, icon: Settings, link: { to: "/config", search: { customer: customerId } } },
            {
              label: importMsg.title,
              icon: Upload,
              need: "editor",
              link: { to: "/users/import", search: { customer: customerId } },
            },
            editAction({ to: "/customers/$customerId/edit", params: { customerId } }),
            {
              ...archiveAction(
                archived,
                setStatus,
                { restore: uiMsg.unarchive, archived: customersMsg.archived, restored: customersMsg.unarchived },
                { ...activeOrInactive, send: (status) => status },
              ),
              tone: archived ? "primary" : "default",
              primary: true,
            },
          ],
          stats: customerStats(customer),
          error: setStatus.error,
        };
      }}
    >
      {(customer) => {
        const domains = splitDomains(customer.valid_domains);
        return (
          <div className="mt-6 flex flex-col gap-6">
            <InfoSection
              title="Customer Information"
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
                    <Muted>{customersMsg.noDomains}</Muted>
                  ),
                },
                { label: "Created", value: <DateText iso={customer.created_at} withTime /> },
                { label: "Last Updated", value: <DateText iso={customer.updated_at} withTime /> },
              ]}
            />

            <Section title="Users">
              <UserTable filter={{ customer_id: customerId }} label="Users" />
            </Section>

            <Section
              title="Teams"
              actionBar={[
                mainAction({
                  label: "Add Team",
                  icon: Plus,
                  link: { to: "/customers/$customerId/add-team", params: { customerId } },
                }),
              ]}
            >
              <CustomerTeamTable customerId={customerId} />
            </Section>

            <DirectorySection customerId={customerId} />
          </div>
        );
      }}
    </RecordPage>
  );
}
