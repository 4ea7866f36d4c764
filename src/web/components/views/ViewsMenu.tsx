import { useState, type FormEvent, type ReactNode } from "react";
import { Bookmark, ChevronDown, Pencil, Plus, RotateCcw, Save, Share2, Star, StarOff, Trash2, X } from "lucide-react";
import { viewLimits } from "../../../domain/limits";
import { shellMsg } from "../../../domain/messages/common";
import { viewsMsg } from "../../../domain/messages/views";
import type { SavedView } from "../../../domain/views";
import { ApiError, errorMessage } from "../../api/client";
import { useCan } from "../../auth/permissions";
import { Field } from "../inputs";
import { Menu, type MenuEntry, type MenuSection } from "../Menu";
import { ConfirmDialog, Modal, notify } from "../overlays";
import type { ListViews } from "./useListViews";

type Dialog = { kind: "create" } | { kind: "rename"; view: SavedView } | { kind: "delete"; view: SavedView } | null;

/** The message for a failed change of a view: a stale version, a view gone, or the server's own words. */
function failure(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return viewsMsg.changedMeanwhile;
  if (error instanceof ApiError && error.status === 404) return viewsMsg.missingView;
  return errorMessage(error) || viewsMsg.failed;
}

/** Notifies a failed change of a view. */
const notifyFailure = (error: unknown) => notify(failure(error), { tone: "error", testId: "views-error" });

/**
 * The changes the menu makes at once, each announced when done: Save (the view shown, to what is
 * shown), Share / Unshare, and making a view the default (or no longer).
 */
function viewChanges(lv: ListViews) {
  const { update, preferences } = lv.mutations;
  const save = () => {
    if (!lv.view) return;
    const name = lv.view.name;
    update.mutate(
      { viewId: lv.view.view_id, version: lv.view.version, state: lv.current },
      { onSuccess: () => notify(viewsMsg.saved(name)), onError: notifyFailure },
    );
  };
  const share = (v: SavedView) =>
    update.mutate(
      { viewId: v.view_id, version: v.version, shared: !v.shared },
      {
        onSuccess: (saved) =>
          notify(saved.shared ? viewsMsg.sharedDone(saved.name) : viewsMsg.unsharedDone(saved.name)),
        onError: notifyFailure,
      },
    );
  const setDefault = (v: SavedView) => {
    const isDefault = lv.defaultViewId === v.view_id;
    preferences.mutate(
      { default_view_id: isDefault ? null : v.view_id },
      {
        onSuccess: () => notify(isDefault ? viewsMsg.defaultCleared : viewsMsg.defaultDone(v.name)),
        onError: notifyFailure,
      },
    );
  };
  return { save, share, setDefault };
}

/** What the menu's actions do: the changes of `viewChanges`, and opening a dialog. */
type MenuActions = ReturnType<typeof viewChanges> & { open: (dialog: Dialog) => void };

/**
 * The actions on the view shown that the operator may take (those the API's `can_edit` refuses,
 * and sharing for viewers, are left out); with no view shown, Save view.
 */
function viewActions(
  view: SavedView | undefined,
  lv: ListViews,
  canShare: boolean,
  { save, share, setDefault, open }: MenuActions,
): MenuEntry[] {
  if (!view) return [{ label: viewsMsg.saveView, icon: Plus, onSelect: () => open({ kind: "create" }) }];
  const actions: MenuEntry[] = [{ label: viewsMsg.none, icon: X, onSelect: () => lv.choose(null) }];
  if (lv.modified && view.can_edit) actions.push({ label: viewsMsg.save, icon: Save, onSelect: save });
  actions.push({ label: viewsMsg.saveAs, icon: Plus, onSelect: () => open({ kind: "create" }) });
  if (view.can_edit)
    actions.push({ label: viewsMsg.rename, icon: Pencil, onSelect: () => open({ kind: "rename", view }) });
  if (view.can_edit && canShare) {
    actions.push({
      label: view.shared ? viewsMsg.unshare : viewsMsg.share,
      icon: Share2,
      onSelect: () => share(view),
    });
  }
  actions.push(
    lv.defaultViewId === view.view_id
      ? { label: viewsMsg.clearDefault, icon: StarOff, onSelect: () => setDefault(view) }
      : { label: viewsMsg.setDefault, icon: Star, onSelect: () => setDefault(view) },
  );
  if (view.can_edit) {
    actions.push({
      label: viewsMsg.delete,
      icon: Trash2,
      tone: "error",
      onSelect: () => open({ kind: "delete", view }),
    });
  }
  return actions;
}

/**
 * The menu's sections: the operator's own views and the shared ones to open (the one shown
 * checked; the default one, and one of the operator's own that others can open, marked), then `actions`.
 */
function menuEntries(lv: ListViews, actions: MenuEntry[]): MenuSection[] {
  const label = (v: SavedView) =>
    [
      v.mine ? v.name : `${v.name} (${viewsMsg.sharedBy(v.owner_email)})`,
      ...(v.mine && v.shared ? [viewsMsg.sharedMark] : []),
      ...(v.view_id === lv.defaultViewId ? [viewsMsg.defaultMark] : []),
    ].join(" · ");
  const radio = (v: SavedView): MenuEntry => ({
    kind: "radio",
    label: label(v),
    checked: v.view_id === lv.viewId,
    onSelect: () => lv.choose(v.view_id),
  });
  const mine = (lv.views ?? []).filter((v) => v.mine);
  const others = (lv.views ?? []).filter((v) => !v.mine);
  return [
    ...(mine.length ? [{ kind: "group" as const, label: viewsMsg.mine, entries: mine.map(radio) }] : []),
    ...(others.length ? [{ kind: "group" as const, label: viewsMsg.shared, entries: others.map(radio) }] : []),
    ...(mine.length || others.length ? [{ kind: "separator" as const }] : []),
    ...actions,
  ];
}

/** The line above the menu's entries while the views load, or when they failed to. */
function menuHeader(lv: ListViews): ReactNode {
  if (lv.viewsFailed) return <span className="text-sm text-error">{viewsMsg.loadError}</span>;
  if (!lv.views) return <span className="text-sm text-base-content/70">{viewsMsg.loading}</span>;
  return undefined;
}

/** Beside a view that differs from what is shown: "Modified", Save (when the operator may change it) and Reset. */
function ModifiedView({
  view,
  saving,
  onSave,
  onReset,
}: {
  view: SavedView;
  saving: boolean;
  onSave: () => void;
  onReset: () => void;
}) {
  return (
    <>
      <span className="badge badge-warning badge-soft" data-testid="view-modified">
        {viewsMsg.modified}
      </span>
      {view.can_edit ? (
        <button type="button" className="btn btn-sm btn-primary" onClick={onSave} disabled={saving}>
          <Save className="h-4 w-4" aria-hidden />
          {viewsMsg.save}
        </button>
      ) : null}
      <button type="button" className="btn btn-sm btn-ghost" onClick={onReset}>
        <RotateCcw className="h-4 w-4" aria-hidden />
        {viewsMsg.reset}
      </button>
    </>
  );
}

/** Asks before deleting `view` (none: closed); a view deleted while shown leaves the list with no view. */
function DeleteViewDialog({
  view,
  views: lv,
  onClose,
}: {
  view: SavedView | undefined;
  views: ListViews;
  onClose: () => void;
}) {
  const { remove } = lv.mutations;
  return (
    <ConfirmDialog
      open={Boolean(view)}
      title={view ? viewsMsg.deleteTitle(view.name) : ""}
      message={viewsMsg.deleteText}
      confirmLabel={viewsMsg.delete}
      busy={remove.isPending}
      error={remove.error ? failure(remove.error) : null}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() => {
        if (!view) return;
        const { view_id, name: deletedName } = view;
        remove.mutate(view_id, {
          onSuccess: () => {
            onClose();
            if (lv.viewId === view_id) lv.choose(null);
            notify(viewsMsg.deleted(deletedName));
          },
        });
      }}
    />
  );
}

/**
 * The views of a list, in its toolbar (docs/saved-views.md "On the screen"): a menu button naming
 * the view shown, listing the operator's own views and the shared ones to open, and the actions
 * the operator may take on the view shown (Save as, Rename, Share, default view, Delete; those the
 * API's `can_edit` refuses, and sharing for viewers, are not offered). A view that differs from
 * what is shown says "Modified" beside it, with Save (when the operator may change it) and Reset.
 */
export function ViewsMenu({ views: lv }: { views: ListViews }) {
  const canShare = useCan("editor");
  const [dialog, setDialog] = useState<Dialog>(null);
  const view = lv.views?.find((v) => v.view_id === lv.viewId) ?? lv.view;
  const changes = viewChanges(lv);
  const actions = viewActions(view, lv, canShare, { ...changes, open: setDialog });
  const name = view?.name ?? null;

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <Menu
        label={viewsMsg.menuLabel(name)}
        buttonClassName="btn btn-sm max-w-full"
        align="start"
        width="w-72"
        header={menuHeader(lv)}
        button={
          <>
            <Bookmark className="h-4 w-4 shrink-0" aria-hidden />
            <span className="max-w-40 truncate">{name ?? viewsMsg.menu}</span>
            <ChevronDown className="h-4 w-4 shrink-0" aria-hidden />
          </>
        }
        entries={menuEntries(lv, actions)}
      />
      {lv.modified && lv.view ? (
        <ModifiedView view={lv.view} saving={lv.mutations.update.isPending} onSave={changes.save} onReset={lv.reset} />
      ) : null}
      <ViewNameDialog
        key={dialog?.kind === "rename" ? dialog.view.view_id : (dialog?.kind ?? "closed")}
        open={dialog?.kind === "create" || dialog?.kind === "rename"}
        rename={dialog?.kind === "rename" ? dialog.view : undefined}
        canShare={canShare}
        views={lv}
        onClose={() => setDialog(null)}
      />
      <DeleteViewDialog
        view={dialog?.kind === "delete" ? dialog.view : undefined}
        views={lv}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}

/**
 * The state of the name dialog and its submission: the name checked as the server does (required,
 * at most 100 characters), then a rename or a new view (shared when asked, for editors and admins);
 * the server's refusal of the name (422 with `fields.name`) shows under the field, any other
 * failure above the buttons.
 */
function useViewNameForm({
  rename,
  canShare,
  views: lv,
  onClose,
}: {
  rename?: SavedView;
  canShare: boolean;
  views: ListViews;
  onClose: () => void;
}) {
  const [name, setName] = useState(rename?.name ?? "");
  const [shared, setShared] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const { create, update } = lv.mutations;

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.status === 422 && (e.fields?.name || !e.fields))
      setFieldError(e.fields?.name ?? e.message);
    else setError(failure(e));
  };
  const send = (trimmed: string) => {
    if (rename) {
      update.mutate(
        { viewId: rename.view_id, version: rename.version, name: trimmed },
        {
          onSuccess: (saved) => {
            notify(viewsMsg.renamed(saved.name));
            onClose();
          },
          onError: fail,
        },
      );
    } else {
      create.mutate(
        { name: trimmed, shared: canShare && shared, state: lv.current },
        {
          onSuccess: (saved) => {
            lv.showSaved(saved);
            notify(viewsMsg.created(saved.name));
            onClose();
          },
          onError: fail,
        },
      );
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimmed = name.trim();
    if (!trimmed) return setFieldError(viewsMsg.enterName);
    if (trimmed.length > viewLimits.maxName) return setFieldError(viewsMsg.nameTooLong(viewLimits.maxName));
    setFieldError(undefined);
    send(trimmed);
  };
  /** A new name typed: the error under the field goes until the next submission. */
  const changeName = (value: string) => {
    setName(value);
    setFieldError(undefined);
  };

  return {
    name,
    changeName,
    shared,
    setShared,
    fieldError,
    error,
    busy: create.isPending || update.isPending,
    submit,
  };
}

/**
 * Save a new view (name, and sharing for editors and admins) or rename one. The name is checked as
 * the server does (required, at most 100 characters); the server's own answer for it (a duplicate
 * name: 422 with `fields.name`) shows under the field.
 */
export function ViewNameDialog({
  open,
  rename,
  canShare,
  views: lv,
  onClose,
}: {
  open: boolean;
  rename?: SavedView;
  canShare: boolean;
  views: ListViews;
  onClose: () => void;
}) {
  const { name, changeName, shared, setShared, fieldError, error, busy, submit } = useViewNameForm({
    rename,
    canShare,
    views: lv,
    onClose,
  });
  const formId = "save-view-form";

  return (
    <Modal
      open={open}
      title={rename ? viewsMsg.renameTitle : viewsMsg.saveTitle}
      onClose={busy ? () => undefined : onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            {shellMsg.ui.cancel}
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {rename ? viewsMsg.renameConfirm : viewsMsg.create}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field label={viewsMsg.nameLabel} htmlFor="view-name" error={fieldError} required>
          <input
            id="view-name"
            className="input w-full"
            value={name}
            maxLength={viewLimits.maxName + 20}
            autoComplete="off"
            onChange={(e) => changeName(e.target.value)}
          />
        </Field>
        {!rename && canShare ? (
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="checkbox checkbox-sm mt-0.5"
              checked={shared}
              onChange={(e) => setShared(e.target.checked)}
            />
            <span>
              {viewsMsg.sharedLabel}
              <span className="block text-xs text-base-content/70">{viewsMsg.sharedHint}</span>
            </span>
          </label>
        ) : null}
        {error ? (
          <div role="alert" className="alert alert-error alert-soft text-sm">
            {error}
          </div>
        ) : null}
      </form>
    </Modal>
  );
}

/**
 * The notes of a view opened without some of its parts (the server's `dropped`, columns the screen
 * no longer has), or of a `?view=` that cannot be opened: a dismissible alert above the table,
 * never an error page.
 */
export function ViewNotes({ views: lv }: { views: ListViews }) {
  const [missingDismissed, setMissingDismissed] = useState(false);
  const notes = lv.missing && !missingDismissed ? [viewsMsg.missingView] : lv.notes;
  if (notes.length === 0) return null;
  return (
    <div role="status" className="alert alert-warning alert-soft mb-3 items-start text-sm" data-testid="view-notes">
      <div className="min-w-0 flex-1">
        {lv.missing ? null : <p className="font-semibold">{viewsMsg.droppedTitle}</p>}
        <ul className={lv.missing ? "" : "mt-1 list-disc pl-5"}>
          {notes.map((n) => (
            <li key={n} className={lv.missing ? "list-none" : ""}>
              {n}
            </li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-xs btn-square"
        aria-label={viewsMsg.dismiss}
        onClick={() => (lv.missing ? setMissingDismissed(true) : lv.dismissNotes())}
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}
