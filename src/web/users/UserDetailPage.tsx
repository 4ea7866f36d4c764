import { useState } from "react";
import { useParams } from "@tanstack/react-router";
import { LogOut, Plus, UsersRound, UserRoundCheck } from "lucide-react";
import { userRoles } from "../../domain/enums";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { searchMsg } from "../../domain/messages/search";
import { teamsMsg } from "../../domain/messages/teams";
import { usersMsg } from "../../domain/messages/users";
import { membershipSortKeys, type UserMembership } from "../../domain/users";
import { editAction, historyAction, mainAction } from "../components/actions";
import { RoleBadges, StatusBadge } from "../components/badges";
import { column, dateColumn } from "../components/columns";
import { InfoSection, Section, statusStat } from "../components/detail";
import { RelatedList } from "../components/EmbeddedList";
import { displayName } from "../components/format";
import { RecordPage } from "../components/RecordPage";
import { DateText, Muted, Num, RelativeTime, Truncate } from "../components/text";
import { backToCustomer, customerStat, directorySource } from "../customers/public";
import { TeamLink } from "../teams/public";
import { AddTeamModal } from "./AddTeamModal";
import { userRecord } from "./UserForm";
import { useLeaveTeam, userMembershipsQuery, userQuery } from "./queries";

/** The user's Team Memberships (SPEC.md §2 "/users/{userId}"): searched, sorted and paged by the server. */
const membershipColumns = [
  column<UserMembership>("team_name", "Team Name", (m) => <TeamLink teamId={m.team_id} name={m.team_name} />, {
    grow: true,
  }),
  column<UserMembership>("customer_name", "Customer", (m) => (
    <Truncate text={m.customer_name ?? fallbacksMsg.unknownCustomer} className="max-w-64" />
  )),
  column<UserMembership>("status", uiMsg.status, (m) => <StatusBadge kind="team" status={m.status} />),
  column<UserMembership>("user_count", "Members", (m) => <Num value={m.user_count} />, { align: "right" }),
  dateColumn<UserMembership>("created_at", "Created", (m) => m.created_at),
];

/** SPEC.md §2 "/users/{userId}": the user, their roles and last login, and their team memberships (Add Team, Leave Team). */
export default function UserDetailPage() {
  const { userId } = useParams({ from: "/users/$userId" });
  const leave = useLeaveTeam(userId);
  const [addOpen, setAddOpen] = useState(false);
  return (
    <RecordPage
      query={userQuery(userId)}
      kind={userRecord}
      header={(u) => ({
        title: displayName(u),
        back: backToCustomer(u.customer_id, teamsMsg.backToCustomer),
        badge: <StatusBadge kind="user" status={u.status} />,
        subtitle: displayName(u) !== u.email ? u.email : undefined,
        actions: [historyAction("user", userId), editAction({ to: "/users/$userId/edit", params: { userId } })],
        stats: [
          customerStat(u.customer_id, u.customer_name ?? fallbacksMsg.unknownCustomer),
          statusStat(u.status),
          { label: "Total Teams", icon: UsersRound, count: u.stats.total_teams },
          { label: "Active Teams", icon: UserRoundCheck, count: u.stats.active_teams },
        ],
      })}
    >
      {(u) => {
        const fullName = [u.first_name, u.last_name].filter(Boolean).join(" ").trim();
        return (
          <>
            <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
              <InfoSection
                title="User Information"
                className="xl:col-span-2"
                items={[
                  { label: "User ID", value: u.user_id, mono: true },
                  { label: "Email", value: u.email },
                  { label: "Full Name", value: fullName || <Muted>{usersMsg.notProvided}</Muted> },
                  { label: "Job Title", value: u.job_title || <Muted>{usersMsg.notSpecified}</Muted> },
                  directorySource(u.directory_managed, "user"),
                  { label: "Created", value: <DateText iso={u.created_at} withTime /> },
                  { label: "Last Updated", value: <DateText iso={u.updated_at} withTime /> },
                ]}
              />
              <div className="flex flex-col gap-6">
                <Section title="Roles">
                  <RoleBadges roles={u.roles} max={userRoles.length} empty={usersMsg.noRolesAssigned} />
                </Section>
                <Section title="Last Login">
                  {u.last_login ? (
                    <div>
                      <div className="text-sm">
                        <DateText iso={u.last_login} withTime />
                      </div>
                      <div className="text-xs text-base-content/70">
                        <RelativeTime iso={u.last_login} />
                      </div>
                    </div>
                  ) : (
                    <Muted>{usersMsg.neverLoggedIn}</Muted>
                  )}
                </Section>
              </div>
            </div>

            <div className="mt-6">
              <Section
                title="Team Memberships"
                actionBar={[mainAction({ label: "Add Team", icon: Plus, onClick: () => setAddOpen(true) })]}
              >
                <RelatedList
                  query={userMembershipsQuery(userId)}
                  sort={{ sort: "team_name", order: "asc" }}
                  label="Team Memberships"
                  search="Search teams..."
                  columns={membershipColumns}
                  rowKey={(m) => m.team_id}
                  sortable={membershipSortKeys}
                  rowLink={(m) => ({ to: "/teams/$teamId", params: { teamId: m.team_id } })}
                  remove={{
                    mutation: leave,
                    variables: (team) => team.team_id,
                    label: "Leave Team",
                    icon: LogOut,
                    name: (team) => `Leave Team ${team.team_name}`,
                    title: "Leave Team",
                    message: (team) => (
                      <>
                        Remove <strong>{displayName(u)}</strong> from <strong>{team.team_name}</strong>? They can be
                        added again later.
                      </>
                    ),
                    busyLabel: usersMsg.leaving,
                    undo: () => usersMsg.leftTeam,
                  }}
                  empty={(q) => ({
                    title: usersMsg.noMemberships,
                    text: q ? searchMsg.noResults(q) : usersMsg.noMembershipsText,
                  })}
                  errorTitle={teamsMsg.loadError}
                />
              </Section>
            </div>

            <AddTeamModal
              userId={userId}
              customerName={u.customer_name ?? fallbacksMsg.unknownCustomer}
              open={addOpen}
              onClose={() => setAddOpen(false)}
            />
          </>
        );
      }}
    </RecordPage>
  );
}
