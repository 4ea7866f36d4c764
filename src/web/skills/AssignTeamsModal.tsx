import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { fallbacksMsg } from "../../domain/messages/kit";
import { skillsMsg } from "../../domain/messages/skills";
import { teamsMsg } from "../../domain/messages/teams";
import type { AssignableTeam } from "../../domain/skills";
import { errorMessage } from "../api/client";
import { ErrorAlert } from "../components/ErrorAlert";
import { EmptyState, SearchInput } from "../components/inputs";
import { ListPagination } from "../components/ListPagination";
import { ModalButtons } from "../components/ModalButtons";
import { Modal } from "../components/overlays";
import { Spinner } from "../components/ui";
import { CustomerFilter } from "../customers/public";
import { useServerList } from "../lib/server-list";
import { assignableTeamsQuery, useAssignTeams } from "./queries";

/**
 * The skill page's Assign modal (SPEC.md §2, §4): active teams with no assignment record for the
 * skill, filterable by customer and searchable. Each team has Assign ("Skill assigned to {team}
 * successfully!"); several teams, or all active teams of the chosen customer, can be selected and
 * assigned at once in one transaction, after seeing how many assignments will be created.
 */
export function AssignTeamsModal({
  skillId,
  skillActive,
  open,
  onClose,
  onAssigned,
}: {
  skillId: string;
  skillActive: boolean;
  open: boolean;
  onClose: () => void;
  onAssigned: (text: string) => void;
}) {
  const [customer, setCustomer] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [busyId, setBusyId] = useState<string | null>(null);
  const [allBusy, setAllBusy] = useState(false);
  const [allError, setAllError] = useState<string | null>(null);
  const assign = useAssignTeams(skillId);
  const client = useQueryClient();
  const list = useServerList<AssignableTeam>({
    mode: "local",
    defaults: { sort: "team_name", order: "asc" },
    limit: 20,
    fixed: { customer_id: customer },
    query: assignableTeamsQuery(skillId),
  });
  const { data, failed, query } = list;

  useEffect(() => {
    if (!open) {
      setSelected(new Map());
      setCustomer(undefined);
      assign.reset();
      setAllError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const toggle = (team: AssignableTeam) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(team.team_id)) next.delete(team.team_id);
      else next.set(team.team_id, teamsMsg.named(team.team_name, team.customer_name));
      return next;
    });

  const done = (text: string) => onAssigned(text);

  const assignOne = (team: AssignableTeam) => {
    setBusyId(team.team_id);
    assign.mutate([team.team_id], {
      onSuccess: () => {
        setSelected((prev) => {
          const next = new Map(prev);
          next.delete(team.team_id);
          return next;
        });
        done(skillsMsg.assignedTo(teamsMsg.named(team.team_name, team.customer_name)));
      },
      onSettled: () => setBusyId(null),
    });
  };

  const assignSelected = () => {
    const ids = [...selected.keys()];
    assign.mutate(ids, {
      onSuccess: (result) => {
        const only = ids.length === 1 ? selected.get(ids[0]) : undefined;
        setSelected(new Map());
        done(only ? skillsMsg.assignedTo(only) : skillsMsg.bulkAssigned(result.created));
      },
    });
  };

  /** Selects every candidate of the chosen customer (at most the bulk limit of 200). */
  const selectAllOfCustomer = async () => {
    if (!customer) return;
    setAllBusy(true);
    setAllError(null);
    try {
      const page = await client.fetchQuery(
        assignableTeamsQuery(skillId)({ customer_id: customer, sort: "team_name", order: "asc", limit: 200 }),
      );
      setSelected((prev) => {
        const next = new Map(prev);
        for (const t of page.items) next.set(t.team_id, teamsMsg.named(t.team_name, t.customer_name));
        return next;
      });
    } catch (err) {
      setAllError(errorMessage(err));
    } finally {
      setAllBusy(false);
    }
  };

  const customerName = data?.items[0]?.customer_name ?? undefined;
  const count = selected.size;

  return (
    <Modal
      open={open}
      title={skillsMsg.assignTitle}
      onClose={onClose}
      size="lg"
      footer={
        <div className="flex w-full flex-wrap items-center justify-between gap-2">
          <span className="text-sm" role="status" data-testid="assign-count">
            {count > 0 ? skillsMsg.willCreate(count) : ""}
          </span>
          <div className="flex gap-2">
            <ModalButtons
              onCancel={onClose}
              label={skillsMsg.assignSelected(count)}
              busy={assign.isPending && busyId === null}
              disabled={count === 0 || assign.isPending || !skillActive}
              onClick={assignSelected}
            />
          </div>
        </div>
      }
    >
      {!skillActive ? (
        <div role="alert" className="alert alert-warning alert-soft mb-3 text-sm">
          {skillsMsg.notActive}
        </div>
      ) : null}
      <ErrorAlert error={assign.error} className="mb-3" />
      <ErrorAlert error={allError} className="mb-3" />
      <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={skillsMsg.searchTeams} />
        <CustomerFilter
          value={customer}
          onChange={(id) => {
            setCustomer(id);
            list.setQuery("");
          }}
        />
      </div>
      <div className="mb-2 text-sm">
        {customer ? (
          <button
            type="button"
            className="btn btn-sm btn-outline"
            disabled={allBusy || !data || data.total === 0 || !skillActive}
            onClick={() => void selectAllOfCustomer()}
          >
            {allBusy ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
            {skillsMsg.selectAllOfCustomer(customerName ?? "this customer")}
          </button>
        ) : (
          <span className="text-base-content/70">{skillsMsg.chooseCustomerFirst}</span>
        )}
      </div>
      {failed ? (
        <ErrorAlert error={query.error} />
      ) : !data ? (
        <Spinner />
      ) : data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={list.state.q || customer ? skillsMsg.noTeamMatch : skillsMsg.noTeamAvailable} />
        </div>
      ) : (
        <ul className="divide-y divide-base-300" aria-label="Assignable teams">
          {data.items.map((team) => (
            <li key={team.team_id} className="flex items-center gap-3 py-2.5">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={selected.has(team.team_id)}
                onChange={() => toggle(team)}
                disabled={!skillActive}
                aria-label={skillsMsg.selectTeam(team.team_name, team.customer_name ?? fallbacksMsg.unknownCustomer)}
                id={`assign-${team.team_id}`}
              />
              <label htmlFor={`assign-${team.team_id}`} className="min-w-0 flex-1 cursor-pointer">
                <span className="block truncate font-medium" title={team.team_name}>
                  {team.team_name}
                </span>
                <span className="block truncate text-xs text-base-content/70">
                  {team.customer_name ?? fallbacksMsg.unknownCustomer}
                </span>
              </label>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => assignOne(team)}
                disabled={assign.isPending || !skillActive}
                aria-label={skillsMsg.assignToNamedTeam(
                  team.team_name,
                  team.customer_name ?? fallbacksMsg.unknownCustomer,
                )}
              >
                {busyId === team.team_id ? teamsMsg.assigning : "Assign"}
              </button>
            </li>
          ))}
        </ul>
      )}
      {data ? <ListPagination list={list} label="Assignable teams pages" /> : null}
    </Modal>
  );
}
