import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import {
  auditActionLabels,
  auditActions,
  auditActionTone,
  auditListNames,
  auditRecordEntities,
  auditEntityLabels,
  auditPageSchema,
  type AuditAction,
  type AuditEntityName,
  type AuditEntry,
} from "../../domain/audit";
import { auditMsg } from "../../domain/messages/audit";
import { apiTokensMsg } from "../../domain/messages/tokens";
import { columnsFor } from "../components/DataTable";
import { gatedScreen, ListFilter, ListScreen } from "../components/ListScreen";
import { screenTexts } from "../components/list-texts";
import { entityQueries } from "../lib/entity-queries";
import { useScreenList } from "../lib/screen-list";
import { queryRoots } from "../lib/query-client";
import { titleCase } from "../components/format";
import { DateText, Muted, Truncate } from "../components/text";
import { EmptyState, FilterSelect } from "../components/inputs";
import { operatorListQuery } from "../operators/public";
import { recordPage } from "../lib/record-pages";

type AuditSearch = {
  operator?: string;
  entity?: string;
  entity_id?: string;
  action?: string;
  from?: string;
  to?: string;
};

function ChangeList({ changes }: { changes: AuditEntry["changes"] }) {
  const before = changes?.before ?? {};
  const after = changes?.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (keys.length === 0) return <Muted>—</Muted>;
  const show = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  return (
    <ul className="flex min-w-0 flex-col gap-0.5 text-left text-xs">
      {keys.slice(0, 6).map((k) => (
        <li key={k} className="truncate" title={`${k}: ${k in before ? `${show(before[k])} → ` : ""}${show(after[k])}`}>
          <span className="font-medium">{k}</span>:{" "}
          {k in before ? (
            <>
              <span className="text-error line-through">{show(before[k])}</span> →{" "}
            </>
          ) : null}
          <span className="text-success">{show(after[k])}</span>
        </li>
      ))}
      {keys.length > 6 ? <li className="text-base-content/70">+{keys.length - 6} more</li> : null}
    </ul>
  );
}

const toneClass = {
  error: "badge-error",
  warning: "badge-warning",
  success: "badge-success",
  neutral: "badge-neutral",
} as const;

/** An action as the console says it ("Skill assigned"), coloured like the console's other badges. */
function ActionBadge({ action }: { action: string }) {
  return (
    <span className={`badge badge-soft badge-sm whitespace-nowrap ${toneClass[auditActionTone(action)]}`}>
      {auditActionLabels[action as AuditAction] ?? action.replace(/_/g, " ")}
    </span>
  );
}

const col = columnsFor<AuditEntry>();
const columns = [
  col.accessor("created_at", {
    id: "created_at",
    header: "Time",
    cell: (c) => <DateText iso={c.getValue()} withTime />,
  }),
  col.accessor("operator_email", {
    id: "operator",
    header: "Operator",
    cell: (c) => {
      const v = c.getValue();
      if (!v) return <Muted>—</Muted>;
      const token = c.row.original.api_token_id;
      return (
        <div className="min-w-0">
          <Truncate text={v} className="max-w-56" />
          {token ? (
            <span className="block text-xs text-base-content/70" title={`${apiTokensMsg.auditVia} ${token}`}>
              {apiTokensMsg.auditVia}
            </span>
          ) : null}
        </div>
      );
    },
  }),
  col.accessor("action", { id: "action", header: "Action", cell: (c) => <ActionBadge action={c.getValue()} /> }),
  col.display({
    id: "entity",
    header: "Record",
    cell: ({ row }) => {
      const { entity, entity_id } = row.original;
      const link = entity_id ? recordPage[entity]?.(entity_id) : undefined;
      return (
        <div className="min-w-0">
          <div>{auditEntityLabels[entity as AuditEntityName] ?? titleCase(entity)}</div>
          {entity_id ? (
            link ? (
              <Link {...link} className="font-mono text-xs text-primary hover:underline" title={entity_id}>
                {entity_id.slice(0, 8)}
              </Link>
            ) : (
              <span className="font-mono text-xs text-base-content/70" title={entity_id}>
                {entity_id.slice(0, 8)}
              </span>
            )
          ) : null}
        </div>
      );
    },
  }),
  col.display({
    id: "changes",
    header: "Changes",
    meta: { grow: true },
    cell: ({ row }) => <ChangeList changes={row.original.changes} />,
  }),
  col.accessor("ip_address", {
    id: "ip",
    header: "Address",
    cell: (c) => <span className="font-mono text-xs">{c.getValue() ?? ""}</span>,
  }),
];

/** GET /api/audit: the list engine's page of log entries. */
const auditListQuery = entityQueries(queryRoots.audit, "/audit", { list: auditPageSchema }).listQuery;

/** Audit log screen (admins): every change and sign-in, filtered by operator, record, action and date. */
export default gatedScreen("admin", auditMsg.title, AuditPageScreen);

function AuditPageScreen() {
  const list = useScreenList(auditListQuery, {
    operator: "operator_id",
    entity: "entity",
    entity_id: "entity_id",
    action: "action",
    from: "from",
    to: "to",
  });
  const s = list.state.filters as AuditSearch;
  const operators = useQuery(operatorListQuery({ sort: "email", order: "asc", limit: 200 }));

  return (
    <ListScreen
      list={list}
      {...screenTexts(auditMsg)}
      filters={
        <>
          <FilterSelect
            label="Operator"
            value={s.operator ?? ""}
            onChange={(v) => list.setFilter({ operator: v || undefined })}
          >
            <option value="">All operators</option>
            {operators.data?.items.map((o) => (
              <option key={o.id} value={o.id}>
                {o.email}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Record"
            value={s.entity ?? ""}
            onChange={(v) => list.setFilter({ entity: v || undefined, entity_id: undefined })}
          >
            <option value="">All records</option>
            {[
              { label: auditMsg.recordKinds, entities: auditRecordEntities },
              { label: auditMsg.exportedLists, entities: auditListNames },
            ].map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.entities.map((e) => (
                  <option key={e} value={e}>
                    {auditEntityLabels[e]}
                  </option>
                ))}
              </optgroup>
            ))}
          </FilterSelect>
          <ListFilter
            list={list}
            name="action"
            label="Action"
            all="All actions"
            options={auditActions}
            optionLabel={(a) => auditActionLabels[a]}
          />
          <DateFilter label="From" value={s.from} onChange={(from) => list.setFilter({ from })} />
          <DateFilter label="To" value={s.to} onChange={(to) => list.setFilter({ to })} />
        </>
      }
      exportPath="/audit"
      aboveTable={
        s.entity_id ? (
          <div className="mb-3 flex items-center gap-2 text-sm">
            <span className="badge badge-primary badge-soft">
              History of {(s.entity && auditEntityLabels[s.entity as AuditEntityName]) || "record"}{" "}
              {s.entity_id.slice(0, 8)}
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              onClick={() => list.setFilter({ entity_id: undefined })}
            >
              Show all
            </button>
          </div>
        ) : null
      }
      record={{ key: (r) => r.audit_id }}
      table={{
        label: auditMsg.title,
        columns,
        empty: <EmptyState title={auditMsg.empty} />,
      }}
    />
  );
}

/** A date bound of the log ("From", "To"); cleared, it is left out of the URL. */
function DateFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-base-content/80">{label}</span>
      <input
        type="date"
        className="input input-sm"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
        aria-label={`${label} date`}
      />
    </label>
  );
}
