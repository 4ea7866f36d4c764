import { useState } from "react";
import { Link } from "@tanstack/react-router";
import {
  History,
  KeyRound,
  KeySquare,
  LogOut,
  MonitorSmartphone,
  MoreHorizontal,
  Plus,
  ShieldCheck,
  ShieldOff,
  Unlock,
  UserX,
  UserCheck,
} from "lucide-react";
import { operatorRoles } from "../../domain/enums";
import { twoFactorMsg } from "../../domain/messages/account";
import { auditMsg } from "../../domain/messages/audit";
import { shellMsg } from "../../domain/messages/common";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { operatorsMsg } from "../../domain/messages/operators";
import { createOperatorSchema, type CreateOperatorInput, type OperatorRow } from "../../domain/operators";
import { errorMessage } from "../api/client";
import { useAuth } from "../auth/AuthProvider";
import { SessionsModal } from "../auth/SessionsModal";
import { columnsFor } from "../components/DataTable";
import { gatedScreen, ListScreen } from "../components/ListScreen";
import { screenTexts } from "../components/list-texts";
import { useScreenList } from "../lib/screen-list";
import { formatFullTime, titleCase } from "../components/format";
import { Tag } from "../components/badges";
import type { FieldSpec } from "../components/EntityForm";
import { ModalForm } from "../components/ModalForm";
import { EmptyState } from "../components/inputs";
import { ConfirmDialog, notify } from "../components/overlays";
import { Menu } from "../components/Menu";
import { RelativeTime, Truncate } from "../components/text";
import { column, countColumn, createdColumn } from "../components/columns";
import { useConfirmAction } from "../components/ConfirmAction";
import {
  operatorListQuery,
  useCreateOperator,
  useResetPassword,
  useResetTwoFactor,
  useRevokeSessions,
  useUnlockOperator,
  useUpdateOperator,
} from "./queries";

/** A random password for a new or reset account, shown once to the admin to hand over. */
function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

type Pending = { kind: "ban" | "unban" | "revoke" | "reset" | "unlock"; operator: OperatorRow } | null;

/** Operators screen (admins): list, create, change role, deactivate, reset password, end sessions, unlock. */
export default gatedScreen("admin", operatorsMsg.title, OperatorsPageScreen);

function OperatorsPageScreen() {
  const { operator: me, signOut } = useAuth();
  // In the URL, as every list screen: shareable, walked by Back, and able to have saved views.
  const list = useScreenList(operatorListQuery, undefined, { sort: "email", order: "asc" });
  const update = useUpdateOperator();
  const reset = useResetPassword();
  const revoke = useRevokeSessions();
  const unlock = useUnlockOperator();
  const resetTwoFactor = useConfirmAction<OperatorRow, string>({
    mutation: useResetTwoFactor(),
    title: twoFactorMsg.reset,
    message: (o) => (
      <>
        {twoFactorMsg.resetTitle(o.email)} {twoFactorMsg.resetText}
      </>
    ),
    confirmLabel: twoFactorMsg.reset,
    tone: "error",
    variables: (o) => o.id,
    done: (o) => notify(twoFactorMsg.resetDone(o.email)),
  });
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [newPassword, setNewPassword] = useState("");
  const [viewingSessions, setViewingSessions] = useState<OperatorRow | null>(null);

  const col = columnsFor<OperatorRow>();
  const columns = [
    column<OperatorRow>(
      "email",
      "Operator",
      (o) => (
        <div className="min-w-0 text-left">
          <Truncate text={o.name} className="font-medium" />
          <Truncate text={o.email} className="text-xs text-base-content/70" />
        </div>
      ),
      { grow: true },
    ),
    column<OperatorRow>("role", "Role", (o) => (
      <select
        className="select select-xs w-28"
        aria-label={`Role of ${o.email}`}
        value={o.role}
        disabled={o.id === me?.id || update.isPending}
        onChange={(e) =>
          update.mutate(
            { id: o.id, role: e.target.value as OperatorRow["role"] },
            { onSuccess: () => notify(operatorsMsg.updated) },
          )
        }
      >
        {operatorRoles.map((r) => (
          <option key={r} value={r}>
            {titleCase(r)}
          </option>
        ))}
      </select>
    )),
    column<OperatorRow>("status", "Status", (o) => {
      if (o.banned) return <Tag tone="error">Deactivated</Tag>;
      if (o.locked_until)
        return (
          <span title={`Until ${formatFullTime(o.locked_until)}`}>
            <Tag tone="warning">Locked</Tag>
          </span>
        );
      return <Tag tone="success">Active</Tag>;
    }),
    column<OperatorRow>("two_factor_enabled", twoFactorMsg.column, (o) =>
      o.two_factor_enabled ? <Tag tone="success">{twoFactorMsg.on}</Tag> : <Tag>{twoFactorMsg.off}</Tag>,
    ),
    countColumn<OperatorRow>("active_sessions", "Sessions"),
    column<OperatorRow>("last_sign_in", "Last Sign-in", (o) => (
      <RelativeTime iso={o.last_sign_in} fallback={fallbacksMsg.neverLoggedIn} />
    )),
    createdColumn<OperatorRow>(),
    col.display({
      id: "actions",
      meta: { actions: true },
      header: () => <span className="sr-only">{uiMsg.actions}</span>,
      cell: ({ row }) => {
        const o = row.original;
        const self = o.id === me?.id;
        return (
          <div className="flex justify-end">
            <Menu
              label={`Actions for ${o.email}`}
              button={<MoreHorizontal className="h-4 w-4" aria-hidden />}
              buttonClassName="btn btn-ghost btn-xs btn-square"
              entries={[
                ...(!self
                  ? [
                      {
                        label: "Reset password",
                        icon: KeyRound,
                        onSelect: () => {
                          setNewPassword(randomPassword());
                          setPending({ kind: "reset", operator: o });
                        },
                      },
                    ]
                  : []),
                {
                  label: shellMsg.sessions.menu,
                  icon: MonitorSmartphone,
                  onSelect: () => setViewingSessions(o),
                },
                {
                  label: "End all sessions",
                  icon: LogOut,
                  onSelect: () => setPending({ kind: "revoke", operator: o }),
                },
                ...(!self && o.two_factor_enabled
                  ? [{ label: twoFactorMsg.reset, icon: ShieldOff, onSelect: () => resetTwoFactor.ask(o) }]
                  : []),
                ...(o.locked_until
                  ? [{ label: "Unlock", icon: Unlock, onSelect: () => setPending({ kind: "unlock", operator: o }) }]
                  : []),
                ...(!self
                  ? [
                      o.banned
                        ? {
                            label: "Reactivate",
                            icon: UserCheck,
                            onSelect: () => setPending({ kind: "unban", operator: o }),
                          }
                        : {
                            label: "Deactivate",
                            icon: UserX,
                            tone: "error" as const,
                            onSelect: () => setPending({ kind: "ban", operator: o }),
                          },
                    ]
                  : []),
                {
                  kind: "link" as const,
                  label: auditMsg.history,
                  icon: History,
                  link: { to: "/audit", search: { entity: "operator", entity_id: o.id } },
                },
              ]}
            />
          </div>
        );
      },
    }),
  ];

  const busy = update.isPending || reset.isPending || revoke.isPending || unlock.isPending;
  const actionError = [update.error, reset.error, revoke.error, unlock.error].find(Boolean);
  const confirm = () => {
    if (!pending) return;
    const { kind, operator: o } = pending;
    const done = (text: string) => () => {
      setPending(null);
      notify(text);
    };
    if (kind === "ban" || kind === "unban")
      update.mutate({ id: o.id, banned: kind === "ban" }, { onSuccess: done(operatorsMsg.updated) });
    if (kind === "revoke") revoke.mutate(o.id, { onSuccess: done(operatorsMsg.sessionsRevoked) });
    if (kind === "unlock") unlock.mutate(o.id, { onSuccess: done(operatorsMsg.unlocked) });
    if (kind === "reset")
      reset.mutate(
        { id: o.id, password: newPassword },
        {
          onSuccess: () => {
            setPending(null);
            notify(operatorsMsg.passwordReset, {
              detail: `New password for ${o.email}: ${newPassword}`,
              sticky: true,
            });
          },
        },
      );
  };

  return (
    <ListScreen
      list={list}
      {...screenTexts(operatorsMsg)}
      actions={
        <>
          <Link to="/api-tokens" className="btn btn-ghost btn-sm">
            <KeySquare className="h-4 w-4" aria-hidden /> {shellMsg.apiTokens.menu}
          </Link>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreating(true)}>
            <Plus className="h-4 w-4" aria-hidden /> Add Operator
          </button>
        </>
      }
      banner={
        <>
          {actionError && !pending ? (
            <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">
              {errorMessage(actionError)}
            </div>
          ) : null}
        </>
      }
      search="Search operators..."
      exportPath="/operators"
      record={{ key: (o) => o.id }}
      table={{
        label: operatorsMsg.title,
        columns,
        empty: <EmptyState title="No operators found" />,
      }}
    >
      {viewingSessions ? (
        <SessionsModal
          open
          operator={viewingSessions}
          onClose={() => setViewingSessions(null)}
          onEndedCurrent={() => void signOut()}
        />
      ) : null}
      <CreateOperatorModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(email, password) => {
          setCreating(false);
          notify(operatorsMsg.created, { detail: `Sign-in for ${email}: ${password}`, sticky: true });
        }}
      />
      <ConfirmDialog
        open={pending !== null}
        tone={pending?.kind === "ban" ? "error" : "primary"}
        title={
          pending
            ? {
                ban: "Deactivate operator",
                unban: "Reactivate operator",
                revoke: "End all sessions",
                reset: "Reset password",
                unlock: "Unlock operator",
              }[pending.kind]
            : ""
        }
        message={
          pending
            ? {
                ban: (
                  <>
                    Deactivate <strong>{pending.operator.email}</strong>? They are signed out everywhere and cannot sign
                    in until reactivated.
                  </>
                ),
                unban: (
                  <>
                    Reactivate <strong>{pending.operator.email}</strong>? They can sign in again with their password.
                  </>
                ),
                revoke: (
                  <>
                    Sign <strong>{pending.operator.email}</strong> out of every browser and end their API tokens?
                  </>
                ),
                reset: (
                  <>
                    Set a new password for <strong>{pending.operator.email}</strong>, sign them out everywhere and end
                    their API tokens? The new password is <code className="font-mono">{newPassword}</code>; hand it over
                    securely.
                  </>
                ),
                unlock: (
                  <>
                    Release the lock on <strong>{pending.operator.email}</strong> after failed sign-ins?
                  </>
                ),
              }[pending.kind]
            : null
        }
        confirmLabel={
          pending
            ? {
                ban: "Deactivate",
                unban: "Reactivate",
                revoke: "End sessions",
                reset: "Reset password",
                unlock: "Unlock",
              }[pending.kind]
            : ""
        }
        busy={busy}
        error={pending && actionError ? errorMessage(actionError) : null}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      />
      {resetTwoFactor.dialog}
    </ListScreen>
  );
}

const operatorFields: FieldSpec<CreateOperatorInput>[] = [
  { kind: "text", name: "email", label: "Email", required: true, type: "email" },
  { kind: "text", name: "name", label: "Name", required: true },
  { kind: "select", name: "role", label: "Role", options: operatorRoles, hint: operatorsMsg.roleHint },
  {
    kind: "text",
    name: "password",
    label: "Initial password",
    required: true,
    mono: true,
    autoComplete: "off",
    hint: operatorsMsg.passwordHint,
  },
];
const newOperator = (): CreateOperatorInput => ({ email: "", name: "", role: "viewer", password: randomPassword() });

function CreateOperatorModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (email: string, password: string) => void;
}) {
  const create = useCreateOperator();
  return (
    <ModalForm
      open={open}
      title="Add Operator"
      onClose={onClose}
      schema={createOperatorSchema}
      fields={operatorFields}
      fresh={newOperator}
      save={async (values) => {
        const created = await create.mutateAsync(values);
        onCreated(created.email, values.password);
      }}
      icon={ShieldCheck}
      submitLabel={operatorsMsg.create}
      busyLabel={operatorsMsg.creating}
    />
  );
}
