import { deletedEntities, deletedPageSchema, type DeletedEntity, type DeletedRecord } from "../../domain/deleted";
import { shellMsg } from "../../domain/messages/common";
import { deletedMsg } from "../../domain/messages/deleted";
import { uiMsg } from "../../domain/messages/kit";
import { errorMessage } from "../api/client";
import { columnsFor } from "../components/DataTable";
import { EmptyState } from "../components/inputs";
import { gatedScreen, ListFilter, ListScreen } from "../components/ListScreen";
import { screenTexts } from "../components/list-texts";
import { notify } from "../components/overlays";
import { DateText, Muted, Truncate } from "../components/text";
import { notifyRestored, restoreChanges, restoreDeletion } from "../components/undo";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";
import { useScreenList } from "../lib/screen-list";

/** GET /api/deleted: the list engine's page of restorable deletions. */
const deletedListQuery = entityQueries(queryRoots.deleted, "/deleted", { list: deletedPageSchema }).listQuery;

const kindLabel = (e: string) => deletedMsg.kinds[e as DeletedEntity] ?? e;

/** Recently deleted (admins and editors): what can still be restored, newest first, with Restore per row. */
export default gatedScreen("editor", shellMsg.deleted.title, DeletedScreen);

function DeletedScreen() {
  const list = useScreenList(deletedListQuery, { entity: "entity" }, { sort: "deleted_at", order: "desc" });
  const restore = useApiMutation(restoreDeletion, restoreChanges);
  const entity = (list.state.filters as { entity?: string }).entity;
  const col = columnsFor<DeletedRecord>();
  const columns = [
    col.accessor("label", {
      id: "label",
      header: deletedMsg.record,
      meta: { grow: true },
      cell: (c) => <Truncate text={c.getValue()} />,
    }),
    col.accessor("entity", { id: "entity", header: deletedMsg.kindLabel, cell: (c) => kindLabel(c.getValue()) }),
    col.display({
      id: "cascade_count",
      header: deletedMsg.includes,
      cell: ({ row }) => deletedMsg.cascade(row.original.cascade_count),
    }),
    col.display({
      id: "deleted_by",
      header: deletedMsg.deletedBy,
      cell: ({ row }) =>
        row.original.deleted_by_email ? (
          <Truncate text={row.original.deleted_by_email} className="max-w-56" />
        ) : (
          <Muted>—</Muted>
        ),
    }),
    col.accessor("deleted_at", {
      id: "deleted_at",
      header: deletedMsg.deletedAt,
      cell: (c) => <DateText iso={c.getValue()} withTime />,
    }),
    col.display({
      id: "restore",
      header: uiMsg.actions,
      cell: ({ row }) => (
        <button
          type="button"
          className="btn btn-outline btn-xs"
          disabled={restore.isPending}
          aria-label={`${deletedMsg.restore} ${row.original.label}`}
          onClick={() =>
            restore.mutate(row.original.deletion_id, {
              onSuccess: notifyRestored,
              onError: (err) => notify(errorMessage(err), { tone: "error" }),
            })
          }
        >
          {deletedMsg.restore}
        </button>
      ),
    }),
  ];

  return (
    <ListScreen
      list={list}
      {...screenTexts({ ...shellMsg.deleted, ...deletedMsg })}
      filters={
        <ListFilter
          list={list}
          name="entity"
          label={deletedMsg.kindLabel}
          all={deletedMsg.allKinds}
          options={deletedEntities}
          optionLabel={kindLabel}
        />
      }
      exportPath="/deleted"
      record={{ key: (r) => r.deletion_id }}
      table={{
        label: shellMsg.deleted.title,
        columns,
        empty: <EmptyState title={entity ? deletedMsg.emptyFiltered : deletedMsg.empty} />,
      }}
    />
  );
}
