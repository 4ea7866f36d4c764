import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from "react";
import { downloadCsv } from "../lib/csv";
import { z } from "zod";
import { Download } from "lucide-react";
import {
  bulkPreviewSchema,
  bulkProgressSchema,
  bulkReportPageSchema,
  type BulkPreview,
  type BulkProgress,
  type BulkReportPage,
} from "../../domain/bulk";
import { bulkMsg } from "../../domain/messages/bulk";
import { api, apiUrl, errorMessage } from "../api/client";
import { useQueryClient } from "@tanstack/react-query";
import { columnsFor, type Column } from "./DataTable";
import { Modal, notify } from "./overlays";
import { offerBulkUndo } from "./undo";
import { asText } from "../../domain/text";
import { titleCase } from "./case";

/**
 * The bulk kit of every list (docs/bulk-actions.md): row selection (checkboxes, Shift+click
 * ranges, Space on a focused row, the page's box, "Select all N matching this filter"), the bulk
 * bar with the list's actions and Export selection, and the dialog that previews an action, runs
 * it with a progress bar (polling GET /api/bulk/{id} every 500 ms), can cancel it, and ends with
 * its report and Download CSV. A list page declares its actions (`BulkActionSpec`); `ListScreen`
 * does the rest.
 */

/** A parameter an action asks for: a fixed choice, or a record found by name in another list. */
export type BulkParam =
  | { name: string; label: string; kind: "choice"; options: readonly string[] }
  | {
      name: string;
      label: string;
      kind: "record";
      path: string;
      id: string;
      text: string;
      filter?: Record<string, string>;
      many?: boolean;
    };

/** The lists a bulk action can pick records from, and the fields naming their records. */
const pickableLists = {
  teams: { id: "team_id", text: "team_name" },
  skills: { id: "skill_id", text: "skill_name" },
  platforms: { id: "platform_id", text: "platform_name" },
};

/**
 * A parameter picking active records of `list` by name, sent as `name`; with `many`, several of
 * them (an array).
 */
export function activeRecordParam(
  list: keyof typeof pickableLists,
  name: string,
  label: string,
  { many }: { many?: boolean } = {},
): BulkParam {
  return { name, label, kind: "record", path: `/${list}`, ...pickableLists[list], filter: { status: "active" }, many };
}

/** One action of a list's bulk bar: its name in /api/bulk/{entity}/{action}, its label, its parameter. */
export type BulkActionSpec = { action: string; label?: string; param?: BulkParam };

/** A list's bulk declaration: its entity (the API's) and actions, and how a row is named. */
export type BulkSpec = { entity: string; actions: BulkActionSpec[] };

/** The selection of a list: ids picked (with their rows, for Export selection), or every row matching. */
export type Selection<I> = { rows: Map<string, I>; allMatching: boolean };

/** Row selection over the page's rows; a new filter or search (`resetKey`) starts over. */
export function useRowSelection<I>(pageRows: I[] | undefined, rowKey: (row: I) => string, resetKey: string) {
  const [selection, setSelection] = useState<Selection<I>>({ rows: new Map(), allMatching: false });
  const anchor = useRef<string | null>(null);
  useEffect(() => {
    setSelection({ rows: new Map(), allMatching: false });
    anchor.current = null;
  }, [resetKey]);
  const rows = useMemo(() => pageRows ?? [], [pageRows]);
  const pageSelected = rows.length > 0 && rows.every((r) => selection.rows.has(rowKey(r)));

  /** Toggles a row; with `range` (Shift), every row from the last toggled one takes its new state. */
  const toggle = useCallback(
    (row: I, range = false) =>
      setSelection((prev) => {
        const next = new Map(prev.rows);
        const id = rowKey(row);
        const on = !next.has(id);
        const ids = rows.map(rowKey);
        const from = range && anchor.current ? ids.indexOf(anchor.current) : -1;
        const to = ids.indexOf(id);
        const span = from >= 0 && to >= 0 ? rows.slice(Math.min(from, to), Math.max(from, to) + 1) : [row];
        for (const r of span) {
          if (on) next.set(rowKey(r), r);
          else next.delete(rowKey(r));
        }
        anchor.current = id;
        return { rows: next, allMatching: false };
      }),
    [rows, rowKey],
  );
  const togglePage = () =>
    setSelection((prev) => {
      const next = new Map(prev.rows);
      for (const r of rows) {
        if (pageSelected) next.delete(rowKey(r));
        else next.set(rowKey(r), r);
      }
      return { rows: next, allMatching: false };
    });
  const selectAllMatching = () => setSelection((prev) => ({ rows: prev.rows, allMatching: true }));
  const clear = () => setSelection({ rows: new Map(), allMatching: false });
  const isSelected = (row: I) => selection.allMatching || selection.rows.has(rowKey(row));
  return { selection, toggle, togglePage, pageSelected, selectAllMatching, clear, isSelected };
}
export type RowSelection<I> = ReturnType<typeof useRowSelection<I>>;

/** The selection column: the page's box in the header, one box per row (Shift+click: a range). */
export function selectColumn<I extends object>(sel: RowSelection<I>, rowLabel: (row: I) => string): Column<I> {
  return columnsFor<I>().display({
    id: "select",
    header: () => (
      <label className="inline-flex cursor-pointer items-center gap-2">
        <input type="checkbox" className="checkbox checkbox-sm" checked={sel.pageSelected} onChange={sel.togglePage} />
        <span className="sm:sr-only">{bulkMsg.selectPage}</span>
      </label>
    ),
    meta: { label: bulkMsg.selectColumn, phoneHeader: true },
    cell: ({ row }) => (
      <input
        type="checkbox"
        className="checkbox checkbox-sm"
        aria-label={bulkMsg.selectRow(rowLabel(row.original))}
        checked={sel.isSelected(row.original)}
        onChange={() => undefined}
        onClick={(e: MouseEvent<HTMLInputElement>) => sel.toggle(row.original, e.shiftKey)}
      />
    ),
  });
}

/** Saves `rows` (their own fields as columns) as a CSV file, written as the server's exports are. */
function downloadRows(rows: object[], name: string) {
  const headers = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  void downloadCsv(name, [headers, ...rows.map((r) => headers.map((h) => (r as Record<string, unknown>)[h]))]);
}

/** Downloads a URL (a server CSV) through a link, keeping the page. */
export function downloadUrl(url: string) {
  const a = document.createElement("a");
  a.href = url;
  a.click();
}

/**
 * The bulk bar over a list with a selection: how many are selected, "Select all N matching this
 * filter", the actions, Export selection (the picked rows, or the list's own export of every
 * match), Clear selection.
 */
export function BulkBar<I extends object>({
  spec,
  sel,
  total,
  pageCount,
  filters,
  exportPath,
  onAction,
}: {
  spec: BulkSpec;
  sel: RowSelection<I>;
  total: number | undefined;
  pageCount: number;
  filters: Record<string, unknown>;
  exportPath: string;
  onAction: (action: BulkActionSpec) => void;
}) {
  const { selection } = sel;
  const count = selection.allMatching ? (total ?? 0) : selection.rows.size;
  if (count === 0) return null;
  const exportSelection = () => {
    if (selection.allMatching) {
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== null && v !== "") query[k] = asText(v);
      downloadUrl(apiUrl(`${exportPath}/export.csv`, query));
    } else downloadRows([...selection.rows.values()], `${spec.entity}-selection.csv`);
  };
  return (
    <div
      role="region"
      aria-label={bulkMsg.selectedCount(count)}
      className="mb-3 flex flex-wrap items-center gap-2 rounded-box border border-primary/40 bg-primary/5 px-3 py-2 text-sm"
      data-testid="bulk-bar"
    >
      <span className="font-medium" role="status">
        {selection.allMatching ? bulkMsg.allMatchingSelected(count) : bulkMsg.selectedCount(count)}
      </span>
      {!selection.allMatching && sel.pageSelected && total !== undefined && total > pageCount ? (
        <button type="button" className="btn btn-link btn-sm" onClick={sel.selectAllMatching}>
          {bulkMsg.selectAllMatching(total)}
        </button>
      ) : null}
      <span className="flex-1" />
      {spec.actions.map((a) => (
        <button key={a.action} type="button" className="btn btn-sm" onClick={() => onAction(a)}>
          {a.label ?? bulkMsg.actions[a.action] ?? a.action}
        </button>
      ))}
      <button type="button" className="btn btn-sm" onClick={exportSelection}>
        <Download className="h-4 w-4" aria-hidden />
        {bulkMsg.exportSelection}
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={sel.clear}>
        {bulkMsg.clearSelection}
      </button>
    </div>
  );
}

const optionsSchema = z.object({ items: z.array(z.record(z.string(), z.unknown())) });

/** A record parameter: a search box and the first matches of the other list (active ones when filtered). */
function RecordParam({
  param,
  value,
  onChange,
}: {
  param: Extract<BulkParam, { kind: "record" }>;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [q, setQ] = useState("");
  const [options, setOptions] = useState<Array<{ id: string; text: string }>>([]);
  useEffect(() => {
    const controller = new AbortController();
    api(param.path, optionsSchema, {
      query: { ...param.filter, q: q || undefined, limit: 20 },
      signal: controller.signal,
    })
      .then((page) =>
        setOptions(page.items.map((r) => ({ id: String(r[param.id]), text: String(r[param.text] ?? r[param.id]) }))),
      )
      .catch(() => undefined);
    return () => controller.abort();
  }, [q, param]);
  return (
    <fieldset className="mb-3">
      <legend className="mb-1 text-sm font-medium">{param.label}</legend>
      <input
        type="search"
        className="input input-sm mb-2 w-full"
        aria-label={`${param.label}: search`}
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <select
        className="select select-sm w-full"
        aria-label={param.label}
        multiple={param.many}
        size={param.many ? 6 : undefined}
        value={param.many ? value : (value[0] ?? "")}
        onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value).filter(Boolean))}
      >
        {param.many ? null : <option value="">{bulkMsg.paramsRequired}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.text}
          </option>
        ))}
      </select>
    </fieldset>
  );
}

type Phase = { step: "params" } | { step: "preview"; preview?: BulkPreview; error?: string } | { step: "run" };
/** The run the dialog follows (an action, or an undo): its progress, once ended its report's first rows. */
export type Run = { title: string; progress: BulkProgress; report?: BulkReportPage; error?: string };

const startedSchema = z.object({ bulk_id: z.string() });

/** What a `BulkDialog` takes: the list's bulk declaration, the action chosen (none: closed), what it applies to. */
type BulkDialogProps<I> = {
  spec: BulkSpec;
  action: BulkActionSpec | null;
  selection: Selection<I>;
  filters: Record<string, unknown>;
  q: string | undefined;
  onClose: (finished: boolean) => void;
};

/**
 * The request of a preview or a run: the selection (the ids picked, or the filter and search of
 * "every row matching") and the parameter's value (an array when it picks several records).
 */
function bulkBody<I>(
  selection: Selection<I>,
  filters: Record<string, unknown>,
  q: string | undefined,
  param: BulkParam | undefined,
  value: string[],
) {
  const sel = selection.allMatching
    ? {
        filter: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== "")),
        ...(q ? { q } : {}),
      }
    : { ids: [...selection.rows.keys()] };
  const params = !param
    ? {}
    : param.kind === "record" && param.many
      ? { [param.name]: value }
      : { [param.name]: value[0] };
  return { selection: sel, params };
}

/**
 * The run a bulk dialog follows (an action's, or an undo's): starts it, polls its progress while it
 * runs, cancels or undoes it, and says once that it ended. `isOpen` tells whether the dialog is
 * open; `reopen` opens it again for an Undo from the notice (or gives that up); `onStarted` moves
 * it to its run step.
 */
export function useBulkRun(isOpen: RefObject<boolean>, reopen: (on: boolean) => void, onStarted: () => void) {
  const [run, setRun] = useState<Run | null>(null);
  const client = useQueryClient();
  // The runs whose end was announced (once each).
  const announced = useRef(new Set<string>());

  /** Says that an ended run ended, once: an action with its Undo, an undo with what it put back. */
  const announce = (ended: Run) => {
    const { progress } = ended;
    if (announced.current.has(progress.bulk_id)) return;
    announced.current.add(progress.bulk_id);
    if (progress.undo_of) notify(bulkMsg.undone(progress.changed));
    else if (progress.can_undo)
      offerBulkUndo(bulkMsg.finished(ended.title, progress.changed), () => void undo(progress.bulk_id, ended.title));
  };

  const bulkId = run?.progress.bulk_id ?? null;
  const running = run?.progress.status === "running";
  /** A progress answer: while running, the counts; once ended, the report's first rows and fresh lists. */
  const show = async (progress: BulkProgress, title: string) => {
    if (progress.status === "running") return setRun((r) => ({ ...r, title, progress }));
    const report = await api(`/bulk/${progress.bulk_id}/report`, bulkReportPageSchema, { query: { limit: 20 } });
    const ended = { title, progress, report };
    setRun(ended);
    void client.invalidateQueries();
    if (!isOpen.current) announce(ended);
  };
  const follow = useRef(show);
  follow.current = show;
  // While it runs: the progress every 500 ms, the dialog open or not.
  useEffect(() => {
    if (!bulkId || !running) return;
    const timer = setInterval(() => {
      void api(`/bulk/${bulkId}`, bulkProgressSchema)
        .then((progress) => follow.current(progress, run.title))
        .catch((err) => setRun((r) => r && { ...r, error: errorMessage(err) }));
    }, 500);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bulkId, running]);

  /** Starts a run (`POST path`) and follows it in the dialog. */
  const start = async (path: string, title: string, body: unknown) => {
    const { bulk_id } = await api(path, startedSchema, { method: "POST", body });
    onStarted();
    await show(await api(`/bulk/${bulk_id}`, bulkProgressSchema), title);
  };
  /** Undoes the run `id` (titled `title`): the dialog shows the undo's progress, opening again if closed. */
  async function undo(id: string, title: string) {
    const fromDialog = isOpen.current;
    reopen(true);
    isOpen.current = true;
    try {
      await start(`/bulk/${id}/undo`, bulkMsg.undoTitle(title), {});
    } catch (err) {
      if (fromDialog) setRun((r) => r && { ...r, error: errorMessage(err) });
      else {
        reopen(false);
        notify(errorMessage(err), { tone: "error" });
      }
    }
  }
  /** Asks the running run to stop. */
  const cancel = async () => {
    if (!bulkId) return;
    try {
      const progress = await api(`/bulk/${bulkId}/cancel`, bulkProgressSchema, { method: "POST", body: {} });
      setRun((r) => r && { ...r, progress });
    } catch {
      // Ended meanwhile: the next poll shows how.
    }
  };
  return { run, running, start, undo, cancel, announce };
}

/** A bulk dialog's step, its parameter's value, its run and what its buttons do (see `BulkDialog`). */
function useBulkDialog<I extends object>({ spec, action, selection, filters, q, onClose }: BulkDialogProps<I>) {
  const [phase, setPhase] = useState<Phase>({ step: "params" });
  // Opened by an Undo from the notice, with no action chosen in the bar.
  const [reopened, setReopened] = useState(false);
  const [value, setValue] = useState<string[]>([]);
  const label = action ? (action.label ?? bulkMsg.actions[action.action] ?? action.action) : "";
  const open = action !== null || reopened;
  const isOpen = useRef(open);
  isOpen.current = open;

  const body = useMemo(
    () => bulkBody(selection, filters, q, action?.param, value),
    [selection, filters, q, action, value],
  );

  /** Asks what the action would do to the selection, and shows it as the preview step. */
  const runPreview = useCallback(async () => {
    if (!action) return;
    setPhase({ step: "preview" });
    try {
      const preview = await api(`/bulk/${spec.entity}/${action.action}/preview`, bulkPreviewSchema, {
        method: "POST",
        body,
      });
      setPhase({ step: "preview", preview });
    } catch (err) {
      setPhase({ step: "preview", error: errorMessage(err) });
    }
  }, [action, body, spec.entity]);

  // An action without a parameter goes straight to its preview.
  useEffect(() => {
    if (!action) return;
    setValue([]);
    if (action.param) setPhase({ step: "params" });
    else void runPreview();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action]);

  const { run, running, start, undo, cancel, announce } = useBulkRun(isOpen, setReopened, () =>
    setPhase({ step: "run" }),
  );
  /** Starts the action on the selection; a failure to start shows in the preview step. */
  const apply = async () => {
    if (!action) return;
    try {
      await start(`/bulk/${spec.entity}/${action.action}`, label, body);
    } catch (err) {
      setPhase({ step: "preview", error: errorMessage(err) });
    }
  };
  /** Closes the dialog, announcing a run that has ended; the parent learns whether a run was shown. */
  const close = () => {
    const finished = phase.step === "run";
    if (finished && run && !running) announce(run);
    isOpen.current = false;
    setPhase({ step: "params" });
    setReopened(false);
    onClose(finished);
  };
  return { phase, value, setValue, label, open, run, running, runPreview, apply, undo, cancel, close };
}

/**
 * The dialog of one bulk action: its parameter (when it has one), the preview (how many change,
 * skipped with reasons, the first rows) and Apply; then the progress bar with counts and Cancel;
 * then the final status, the first rows of the report, Download CSV and, while it is possible,
 * Undo. The run is followed after the dialog is closed; once it has ended and the dialog is closed,
 * its notice offers Undo for 10 s (`offerBulkUndo`), which opens the dialog again on the undo's
 * progress and report. Refreshes the app's queries when a run ends.
 */
export function BulkDialog<I extends object>(props: BulkDialogProps<I>) {
  const { action } = props;
  const { phase, value, setValue, label, open, run, running, runPreview, apply, undo, cancel, close } =
    useBulkDialog(props);
  const shown = phase.step === "run" ? run : null;
  const footer =
    phase.step !== "run" || shown ? (
      <BulkFooter
        phase={phase}
        label={label}
        canPreview={value.length > 0}
        run={shown}
        running={running}
        onPreview={() => void runPreview()}
        onApply={() => void apply()}
        onCancelRun={() => void cancel()}
        onUndo={(id, title) => void undo(id, title)}
        onClose={close}
      />
    ) : null;
  return (
    <Modal open={open} title={shown?.title ?? label} onClose={close} footer={footer} size="lg">
      {phase.step === "params" && action?.param ? (
        <ParamField param={action.param} value={value} onChange={setValue} />
      ) : null}
      {phase.step === "preview" ? <PreviewStep preview={phase.preview} error={phase.error} /> : null}
      {shown ? <RunProgress run={shown} /> : null}
    </Modal>
  );
}

/** What `BulkFooter` takes: the step, its run (in the run step), and what each button does. */
type BulkFooterProps = {
  phase: Phase;
  label: string;
  canPreview: boolean;
  run: Run | null;
  running: boolean;
  onPreview: () => void;
  onApply: () => void;
  onCancelRun: () => void;
  onUndo: (id: string, title: string) => void;
  onClose: () => void;
};

/**
 * The dialog's buttons: Cancel and Preview (the parameter step), Cancel and Confirm (the preview),
 * Cancel while the run runs, then Download CSV, Undo (while possible) and Close. One component for
 * every step: React then keeps the buttons' elements from one step to the next, and the focus on them.
 */
function BulkFooter({
  phase,
  label,
  canPreview,
  run,
  running,
  onPreview,
  onApply,
  onCancelRun,
  onUndo,
  onClose,
}: BulkFooterProps) {
  /** Cancel, then the step's primary button. */
  const withCancel = (primary: ReactNode) => (
    <>
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        {bulkMsg.cancel}
      </button>
      {primary}
    </>
  );
  if (phase.step === "params")
    return withCancel(
      <button type="button" className="btn btn-primary" disabled={!canPreview} onClick={onPreview}>
        {bulkMsg.previewTitle(label)}
      </button>,
    );
  if (phase.step === "preview")
    return withCancel(
      <button
        type="button"
        className="btn btn-primary"
        disabled={!phase.preview || phase.preview.will_change === 0}
        onClick={onApply}
      >
        {bulkMsg.confirm}
      </button>,
    );
  if (!run) return null;
  if (running)
    return (
      <button type="button" className="btn" disabled={run.progress.cancel_requested} onClick={onCancelRun}>
        {bulkMsg.cancel}
      </button>
    );
  return (
    <>
      <RunEndedActions run={run} onUndo={() => onUndo(run.progress.bulk_id, run.title)} />
      <button type="button" className="btn btn-primary" onClick={onClose}>
        {bulkMsg.close}
      </button>
    </>
  );
}

/** An ended run's buttons (a bulk dialog's and an import's): Download CSV (its report) and Undo while possible. */
export function RunEndedActions({ run, onUndo }: { run: Run; onUndo: () => void }) {
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => downloadUrl(apiUrl(`/bulk/${run.progress.bulk_id}/report.csv`))}
      >
        <Download className="h-4 w-4" aria-hidden />
        {bulkMsg.downloadReport}
      </button>
      {run.progress.can_undo ? (
        <button type="button" className="btn" onClick={onUndo}>
          {bulkMsg.undo}
        </button>
      ) : null}
    </>
  );
}

/** The parameter step: a fixed choice's select, or a record's search (`RecordParam`). */
function ParamField({
  param,
  value,
  onChange,
}: {
  param: BulkParam;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  return param.kind === "choice" ? (
    <label className="mb-3 block">
      <span className="mb-1 block text-sm font-medium">{param.label}</span>
      <select
        className="select select-sm w-full"
        value={value[0] ?? ""}
        onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}
      >
        <option value="">{bulkMsg.paramsRequired}</option>
        {param.options.map((o) => (
          <option key={o} value={o}>
            {titleCase(o)}
          </option>
        ))}
      </select>
    </label>
  ) : (
    <RecordParam param={param} value={value} onChange={onChange} />
  );
}

/** The preview step: its error, the "checking" line, or how many change, the skipped with reasons and the first rows. */
function PreviewStep({ preview, error }: { preview?: BulkPreview; error?: string }) {
  return error ? (
    <p role="alert" className="text-error">
      {error}
    </p>
  ) : !preview ? (
    <p role="status">{bulkMsg.previewing}</p>
  ) : (
    <div data-testid="bulk-preview">
      <p className="font-medium" role="status">
        {preview.will_change === 0 ? bulkMsg.nothingChanges : bulkMsg.willChange(preview.will_change)}
      </p>
      <ul className="my-2 text-sm">
        {preview.skipped.map((s) => (
          <li key={s.reason}>{bulkMsg.skippedLine(s.reason, s.count)}</li>
        ))}
      </ul>
      <RowsTable title={bulkMsg.firstRows} rows={preview.sample} />
    </div>
  );
}

/** A run's status, progress bar and counts, its error, and once it has ended its report's first rows. */
export function RunProgress({ run: { progress, error, report } }: { run: Run }) {
  return (
    <div data-testid="bulk-progress">
      <p className="font-medium" role="status">
        {bulkMsg.status[progress.status]} · {bulkMsg.running(progress.processed, progress.total)}
      </p>
      <progress
        className="progress progress-primary my-2 w-full"
        aria-label={bulkMsg.progressLabel}
        value={progress.processed}
        max={Math.max(1, progress.total)}
      />
      <p className="text-sm">{bulkMsg.counts(progress.changed, progress.skipped, progress.failed)}</p>
      {error ? (
        <p role="alert" className="text-error">
          {error}
        </p>
      ) : null}
      {report ? <RowsTable title={bulkMsg.report} rows={report.items} /> : null}
    </div>
  );
}

/** A table of a preview's or a report's rows: the record, its outcome and the reason. */
function RowsTable({
  title,
  rows,
}: {
  title: string;
  rows: Array<{ row_id: string; label: string | null; outcome: string; reason: string | null }>;
}) {
  return (
    <table className="table table-xs mt-2" aria-label={title}>
      <caption className="text-left text-sm font-medium">{title}</caption>
      <thead>
        <tr>
          <th scope="col">{bulkMsg.reportRecord}</th>
          <th scope="col">{bulkMsg.reportOutcome}</th>
          <th scope="col">{bulkMsg.reportReason}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.row_id}>
            <td>{r.label ?? r.row_id}</td>
            <td>{bulkMsg.outcome[r.outcome] ?? r.outcome}</td>
            <td>{r.reason ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
