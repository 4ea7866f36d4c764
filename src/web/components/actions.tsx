import { useId, type ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { Archive, ArchiveRestore, History, Lock, MoreHorizontal, Pencil, Plus, type LucideIcon } from "lucide-react";
import type { OperatorRole } from "../../domain/enums";
import { auditMsg } from "../../domain/messages/audit";
import { editMsg } from "../../domain/messages/edit";
import { uiMsg } from "../../domain/messages/kit";
import type { Target } from "../lib/target";
import { useCan } from "../auth/permissions";
import { Menu, type MenuEntry } from "./Menu";
import { notify } from "./overlays";
import { Card, NotAllowed, PageHeader } from "./ui";

/**
 * One button of a page or section: runs `onClick` or opens `to`. `need` is the operator role the
 * action requires; below it the button stays in place, disabled, with the reason on hover and for
 * screen readers (the console's one rule for actions a role may not use).
 */
export type Action = {
  label: string;
  icon?: LucideIcon;
  tone?: "primary" | "default" | "danger";
  need?: OperatorRole;
  busy?: boolean;
  disabled?: boolean;
  /** Why the action cannot be used on this record now (the server's rule, in its words): shown as for a role. */
  disabledReason?: string;
  /** Kept visible on phones; the others go into the "More actions" menu there. */
  primary?: boolean;
  onClick?: () => void;
  /** Where it goes, for an action that opens a screen rather than doing something. */
  link?: Target;
};

const toneClass = { primary: "btn-primary", default: "btn-outline", danger: "btn-outline btn-error" } as const;

/** The reason an operator cannot use an action needing `need`, or undefined when they can. */
export function useRoleReason(need: OperatorRole | undefined): string | undefined {
  const allowed = useCan(need ?? "viewer");
  if (!need || allowed) return undefined;
  return need === "admin" ? uiMsg.adminOnly : uiMsg.readOnly;
}

/** A button that a role may not use: disabled, with the reason on hover, on focus and for screen readers. */
export function DisabledAction({
  label,
  icon: Icon,
  reason,
  size = "btn-sm",
}: {
  label: string;
  icon?: LucideIcon;
  reason: string;
  size?: string;
}) {
  const id = useId();
  return (
    // To the left: the header actions end at the page's right edge, and a tooltip centred under the
    // last one would reach past it (the page would scroll sideways).
    <span className="tooltip tooltip-left" data-tip={reason}>
      <button
        type="button"
        className={`btn ${size} btn-outline`}
        aria-disabled="true"
        aria-describedby={id}
        title={reason}
        data-reason={reason}
      >
        {Icon ? <Icon className="h-4 w-4" aria-hidden /> : <Lock className="h-4 w-4" aria-hidden />}
        {label}
      </button>
      <span id={id} className="sr-only">
        {reason}
      </span>
    </span>
  );
}

/** One action as a button (or link), honouring its role. */
export function ActionButton({ action, size = "btn-sm" }: { action: Action; size?: string }) {
  const reason = useRoleReason(action.need) ?? action.disabledReason;
  const { label, icon: Icon, tone = "default", busy, disabled } = action;
  if (reason) return <DisabledAction label={label} icon={Icon} reason={reason} size={size} />;
  const content = (
    <>
      {busy ? (
        <span className="loading loading-spinner loading-xs" aria-hidden />
      ) : Icon ? (
        <Icon className="h-4 w-4" aria-hidden />
      ) : null}
      {label}
    </>
  );
  const className = `btn ${size} whitespace-nowrap ${toneClass[tone]}`;
  if (action.link) {
    return (
      <Link {...action.link} className={className}>
        {content}
      </Link>
    );
  }
  return (
    <button type="button" className={className} onClick={action.onClick} disabled={disabled || busy}>
      {content}
    </button>
  );
}

/**
 * A page's or section's actions on one row. On phones the actions marked `primary` stay as
 * buttons and the rest go into a "More actions" menu, so the row never wraps.
 */
export function ActionBar({ actions }: { actions: Array<Action | false | null | undefined> }) {
  const list = actions.filter((a): a is Action => Boolean(a));
  const secondary = list.filter((a) => !a.primary);
  return (
    <div className="flex items-center gap-2">
      {list.map((action) => (
        <span key={action.label} className={action.primary ? "contents" : "contents max-sm:hidden"}>
          <ActionButton action={action} />
        </span>
      ))}
      {secondary.length > 0 ? (
        <span className="sm:hidden">
          <OverflowMenu actions={secondary} />
        </span>
      ) : null}
    </div>
  );
}

/** The phone's "More actions" menu of an `ActionBar`. */
function OverflowMenu({ actions }: { actions: Action[] }) {
  const readOnly = useRoleReason("editor");
  const admin = useRoleReason("admin");
  const entries: MenuEntry[] = actions.map((a) => {
    const reason = (a.need === "admin" ? admin : a.need ? readOnly : undefined) ?? a.disabledReason;
    if (a.link && !reason) return { kind: "link", label: a.label, icon: a.icon, link: a.link };
    return {
      label: a.label,
      icon: a.icon,
      tone: a.tone === "danger" ? "error" : undefined,
      onSelect: a.onClick ?? (() => undefined),
      disabledReason: reason,
    };
  });
  // Phones only, where the bar sits at the left under the title: the menu opens to the right.
  return (
    <Menu
      label={uiMsg.moreActions}
      align="start"
      button={<MoreHorizontal className="h-4 w-4" aria-hidden />}
      buttonClassName="btn btn-sm btn-outline btn-square"
      entries={entries}
    />
  );
}

/** What a role that may not change data sees on an add or edit route, instead of a form it cannot submit. */
export function ReadOnlyNotice({ back }: { back?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl">
      <Card role="status" bodyClassName="items-center py-12 text-center">
        <Lock className="h-10 w-10 text-base-content/70" aria-hidden />
        <p className="text-lg font-semibold">{uiMsg.readOnly}</p>
        {back ? <div className="mt-3">{back}</div> : null}
      </Card>
    </div>
  );
}

/** "History": the audit log of one record; admins only (they may read the audit log). */
export function historyAction(entity: string, id: string): Action {
  const link: Target = { to: "/audit", search: { entity, entity_id: id } };
  return { label: auditMsg.history, icon: History, link, need: "admin" };
}

/**
 * The main action of a page or section for editors and up (Add Team, Assign Skill, Edit Prompt):
 * filled unless `tone` says otherwise, and kept as a button on phones.
 */
export function mainAction(action: Action): Action {
  return { tone: "primary", need: "editor", primary: true, ...action };
}

/**
 * A section's Add button (Add Prompt, Assign Platform) opening its modal: a main action in the
 * default tone, so that the page's own main action stays the one filled.
 */
export function sectionAddAction(label: string, onClick: () => void): Action {
  return mainAction({ label, icon: Plus, tone: "default", onClick });
}

/** Edit (or `label`) opening the record's edit screen, editors and up; `main`: the page's main action. */
export function editAction(
  link: Target,
  { label = editMsg.edit, main = false }: { label?: string; main?: boolean } = {},
): Action {
  const action: Action = { label, icon: Pencil, need: "editor", link };
  return main ? mainAction(action) : action;
}

/** The labels of an archive action ("Archive" unless given, and its way back) and its notices once done. */
export type ArchiveTexts = { archive?: string; restore: string; archived: string; restored: string };

/**
 * The two statuses an archive action moves a record between, from the entity's own status set
 * (`active` and `inactive` for most; `active` and `archived` for another), and how the mutation is
 * sent one of them.
 */
export type ArchiveStatuses<S extends string, V> = { live: S; archived: S; send: (status: S) => V };

/** A record's live and archived statuses, the one to move to sent as `{ status }`. */
export const statusPair = <const L extends string, const A extends string>(live: L, archived: A) => ({
  live,
  archived,
  send: (status: L | A) => ({ status }),
});

/** The statuses of most entities (SPEC.md §4). */
export const activeOrInactive = statusPair("active", "inactive");

/**
 * What an archive action needs of a mutation (`useMutation`'s result, or any with these parts):
 * `mutate` with the next status's request, then `onSuccess`.
 */
export type StatusMutation<V> = {
  mutate: (variables: V, options: { onSuccess: () => void }) => void;
  isPending: boolean;
};

/**
 * Archive, or its way back (Unarchive, Activate), of the record on screen, editors and up: runs
 * `mutation` with the next status of `statuses` (the live one when `archived`, else the archived
 * one) and then says so.
 */
export function archiveAction<V, S extends string>(
  archived: boolean,
  mutation: StatusMutation<V>,
  texts: ArchiveTexts,
  statuses: ArchiveStatuses<S, NoInfer<V>>,
): Action {
  return {
    label: archived ? texts.restore : (texts.archive ?? uiMsg.archive),
    icon: archived ? ArchiveRestore : Archive,
    need: "editor",
    busy: mutation.isPending,
    onClick: () =>
      mutation.mutate(statuses.send(archived ? statuses.live : statuses.archived), {
        onSuccess: () => notify(archived ? texts.restored : texts.archived),
      }),
  };
}

/**
 * A screen only `need` may open (the operators, the audit log): any other role reaching it by URL
 * sees the screen's title and one statement of why, with no toolbar, no data and no Retry.
 */
export function RoleGate({ need, title, children }: { need: OperatorRole; title: string; children: ReactNode }) {
  const reason = useRoleReason(need);
  if (!reason) return <>{children}</>;
  return (
    <>
      <PageHeader title={title} />
      <NotAllowed reason={reason} />
    </>
  );
}
