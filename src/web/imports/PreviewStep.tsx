import { useMemo, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Download, Pencil, TriangleAlert, UserCheck, UserPen, UserPlus, type LucideIcon } from "lucide-react";
import { importMsg } from "../../domain/import-messages";
import {
  importOutcomes,
  type Import,
  type ImportCounts,
  type ImportOutcome,
  type ImportRow,
} from "../../domain/imports";
import { bulkMsg } from "../../domain/messages/bulk";
import { listsMsg } from "../../domain/messages/kit";
import { apiUrl, errorMessage } from "../api/client";
import { Tag, type Tone } from "../components/badges";
import { downloadUrl, RunEndedActions, RunProgress, useBulkRun } from "../components/bulk";
import { column } from "../components/columns";
import { actionsColumn, DataTable, type Column } from "../components/DataTable";
import { formatNumber } from "../components/format";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { ListFilter } from "../components/ListScreen";
import { ListPagination } from "../components/ListPagination";
import { notify } from "../components/overlays";
import { Muted, Num, Truncate } from "../components/text";
import { Card, ErrorState, Spinner, StatCard, StatGrid } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { importKeys, importRowsQuery } from "./api";
import { FixRowModal } from "./FixRowModal";
import { columnName } from "./MappingStep";
import { StepError, StepHeading } from "./parts";

/** Each outcome's badge colour and card icon. */
const outcomeTone: Record<ImportOutcome, Tone> = {
  create: "success",
  update: "info",
  unchanged: "neutral",
  error: "error",
};
const outcomeIcon: Record<ImportOutcome, LucideIcon> = {
  create: UserPlus,
  update: UserPen,
  unchanged: UserCheck,
  error: TriangleAlert,
};

const noCounts: ImportCounts = { create: 0, update: 0, unchanged: 0, error: 0 };

/**
 * The preview step: the counts of each outcome as cards; the rows (the server's pages, filtered
 * by outcome and searched) with their outcome and reason and the file's cells, a row in error
 * fixed in place ("Fix": its cells in a dialog, checked again on Save; the counts and the table
 * follow); "Download rows in error"; Back, Start over and "Import N users", which applies the
 * import as a bulk run whose progress, report, Download CSV and Undo then take the rows' place.
 */
export function PreviewStep({
  imp,
  focus,
  onBack,
  onStartOver,
}: {
  imp: Import;
  focus: boolean;
  onBack: () => void;
  onStartOver: () => void;
}) {
  const [counts, setCounts] = useState<ImportCounts>(imp.counts ?? noCounts);
  const [applied, setApplied] = useState(false);
  // The run shows in the page itself: it never needs reopening.
  const shown = useRef(true);
  const bulk = useBulkRun(
    shown,
    () => undefined,
    () => setApplied(true),
  );
  return (
    <div className="flex flex-col gap-6">
      <StatGrid>
        {importOutcomes.map((o) => {
          const Icon = outcomeIcon[o];
          return (
            <StatCard key={o} label={importMsg.counts[o]} value={formatNumber(counts[o])} icon={<Icon aria-hidden />} />
          );
        })}
      </StatGrid>
      {applied ? (
        <RunPanel imp={imp} bulk={bulk} onStartOver={onStartOver} />
      ) : (
        <RowsPanel
          imp={imp}
          counts={counts}
          onCounts={setCounts}
          focus={focus}
          onBack={onBack}
          onStartOver={onStartOver}
          onApply={() => bulk.start(`/imports/${imp.import_id}/apply`, importMsg.applyTitle, {})}
        />
      )}
    </div>
  );
}

/** The rows of the preview, their toolbar and pager, the Fix dialog and the step's buttons. */
function RowsPanel({
  imp,
  counts,
  onCounts,
  focus,
  onBack,
  onStartOver,
  onApply,
}: {
  imp: Import;
  counts: ImportCounts;
  onCounts: (c: ImportCounts) => void;
  focus: boolean;
  onBack: () => void;
  onStartOver: () => void;
  onApply: () => Promise<void>;
}) {
  const client = useQueryClient();
  const list = useServerList<ImportRow>({
    mode: "local",
    defaults: { sort: "seq", order: "asc" },
    filters: { outcome: "outcome" },
    query: importRowsQuery(imp.import_id),
  });
  const [fixing, setFixing] = useState<ImportRow | null>(null);
  const [applying, setApplying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const columns = useRowColumns(imp, setFixing);
  const toApply = counts.create + counts.update;
  const { data, failed, query } = list;

  const apply = async () => {
    setApplying(true);
    setError(null);
    try {
      await onApply();
    } catch (err) {
      setError(errorMessage(err));
      setApplying(false);
    }
  };

  return (
    <Card as="section" aria-labelledby="import-preview-heading" bodyClassName="gap-4 p-5">
      <StepHeading id="import-preview-heading" focus={focus}>
        {importMsg.stepPreview}
      </StepHeading>
      <div>
        <Toolbar
          actions={
            counts.error > 0 ? (
              <button
                type="button"
                className="btn btn-sm btn-outline"
                onClick={() => downloadUrl(apiUrl(`/imports/${imp.import_id}/errors.csv`))}
              >
                <Download className="h-4 w-4" aria-hidden />
                {importMsg.downloadErrors}
              </button>
            ) : null
          }
        >
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={importMsg.searchRows} />
          <ListFilter
            list={list}
            name="outcome"
            label={importMsg.outcomeHeader}
            all={importMsg.allRows}
            options={importOutcomes}
            optionLabel={(o) => importMsg.outcome[o] ?? o}
          />
        </Toolbar>
        {failed ? (
          <ErrorState
            title={importMsg.rowsLoadError}
            message={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <>
            <DataTable
              label={importMsg.rows}
              columns={columns}
              rows={data?.items}
              rowKey={(r) => r.import_row_id}
              loading={query.isPending || query.isFetching}
              empty={<EmptyState title={list.narrowed ? importMsg.noRowsMatch : importMsg.noRows} />}
            />
            <ListPagination list={list} label={listsMsg.pagerOf(importMsg.rows)} />
          </>
        )}
      </div>
      <StepError message={error} />
      <div className="flex flex-wrap items-center justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onBack} disabled={applying}>
          {importMsg.back}
        </button>
        <button type="button" className="btn btn-outline" onClick={onStartOver} disabled={applying}>
          {importMsg.startOver}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void apply()}
          disabled={applying || toApply === 0}
        >
          {applying ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
          {importMsg.apply(toApply)}
        </button>
      </div>
      <FixRowModal
        imp={imp}
        row={fixing}
        onClose={() => setFixing(null)}
        onFixed={(fixed) => {
          onCounts(fixed.counts);
          setFixing(null);
          notify(importMsg.rowFixed(fixed.row.seq));
          void client.invalidateQueries({ queryKey: importKeys.rows(imp.import_id) });
        }}
      />
    </Card>
  );
}

/**
 * The rows' columns: Row, Email, Outcome, Reason (the column that grows), then the row's cells
 * (their values on one line, cut, each with its column's name on hover, so that a file of fifty
 * columns never makes the table scroll sideways), and Fix on a row in error.
 */
function useRowColumns(imp: Import, onFix: (row: ImportRow) => void): Column<ImportRow>[] {
  return useMemo(() => {
    const cellsText = (r: ImportRow) =>
      imp.columns.map((_, i) => `${columnName(imp, i)}: ${r.cells[i] ?? ""}`).join("\n");
    return [
      column<ImportRow>("seq", importMsg.rowHeader, (r) => <Num value={r.seq} />, { align: "right" }),
      column<ImportRow>(
        "email",
        importMsg.fields.email,
        (r) =>
          r.email ? <Truncate text={r.email} className="max-w-48 font-medium" /> : <Muted>{importMsg.noEmail}</Muted>,
        { primary: true },
      ),
      column<ImportRow>("outcome", importMsg.outcomeHeader, (r) =>
        r.outcome ? <Tag tone={outcomeTone[r.outcome]}>{importMsg.outcome[r.outcome]}</Tag> : null,
      ),
      column<ImportRow>(
        "reason",
        importMsg.reasonHeader,
        (r) => (r.reason ? <Truncate text={r.reason} lines={2} /> : null),
        { grow: true },
      ),
      column<ImportRow>("cells", importMsg.cellsHeader, (r) => (
        <Truncate text={cellsText(r)} className="max-w-56 text-base-content/80 sm:w-56">
          {r.cells.map((c) => c.replace(/\s+/g, " ").trim()).join(" · ")}
        </Truncate>
      )),
      actionsColumn<ImportRow>((r) =>
        r.outcome === "error" ? (
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            aria-label={importMsg.fixTitle(r.seq)}
            onClick={() => onFix(r)}
          >
            <Pencil className="h-3.5 w-3.5" aria-hidden />
            {importMsg.fix}
          </button>
        ) : null,
      ),
    ];
  }, [imp, onFix]);
}

/**
 * The applied import's bulk run (bulk.tsx's run): its status, progress bar and counts, then its
 * report's first rows, Download CSV and, while possible, Undo (whose own run then shows here);
 * Cancel while it runs; the customer's users; Start over.
 */
function RunPanel({
  imp,
  bulk: { run, running, undo, cancel },
  onStartOver,
}: {
  imp: Import;
  bulk: ReturnType<typeof useBulkRun>;
  onStartOver: () => void;
}) {
  return (
    <Card as="section" aria-labelledby="import-run-heading" bodyClassName="gap-4 p-5">
      <StepHeading id="import-run-heading" focus>
        {run?.title ?? importMsg.applyTitle}
      </StepHeading>
      {run ? <RunProgress run={run} /> : <Spinner />}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {run && !running ? (
          <RunEndedActions run={run} onUndo={() => void undo(run.progress.bulk_id, run.title)} />
        ) : null}
        {run && running ? (
          <button type="button" className="btn" disabled={run.progress.cancel_requested} onClick={() => void cancel()}>
            {bulkMsg.cancel}
          </button>
        ) : null}
        {imp.customer_id && run && !running ? (
          <Link to="/users" search={{ customer: imp.customer_id }} className="btn btn-outline">
            {importMsg.openUsers}
          </Link>
        ) : null}
        <button type="button" className="btn btn-primary" onClick={onStartOver} disabled={running}>
          {importMsg.startOver}
        </button>
      </div>
    </Card>
  );
}
