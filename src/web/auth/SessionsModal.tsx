import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { useState } from "react";
import { sessionsMsg } from "../../domain/messages/account";
import { revokedSchema } from "../../domain/operators";
import { operatorSessionsSchema, type OperatorSessionRow } from "../../domain/sessions";
import { api } from "../api/client";
import { column, dateColumn } from "../components/columns";
import { actionsColumn, DataTable } from "../components/DataTable";
import { ErrorAlert } from "../components/ErrorAlert";
import { ConfirmDialog, Modal, notify } from "../components/overlays";
import { Tag } from "../components/badges";
import { Muted, RelativeTime, Truncate } from "../components/text";

/**
 * The signed-in sessions of an account (docs/identity.md "Sessions"): the operator's own from the
 * user menu, or, for an admin, another operator's from the Operators screen (`operator`). Each
 * row names its browser (the full user agent on hover), address, sign-in and last use, and ends
 * with End; ending this browser's own session signs it out (after a confirmation).
 */
export function SessionsModal({
  open,
  onClose,
  operator,
  onEndedCurrent,
}: {
  open: boolean;
  onClose: () => void;
  /** Another operator's sessions (admin); absent: the signed-in operator's own. */
  operator?: { id: string; email: string };
  /** Called after this browser's own session was ended. */
  onEndedCurrent?: () => void;
}) {
  const base = operator ? `/operators/${encodeURIComponent(operator.id)}/sessions` : "/account/sessions";
  const key = ["sessions", operator?.id ?? "me"];
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: key, queryFn: () => api(base, operatorSessionsSchema), enabled: open });
  const [ending, setEnding] = useState<OperatorSessionRow | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  async function end(row: OperatorSessionRow) {
    setBusy(row.id);
    setFailure(null);
    try {
      await api(`${base}/${encodeURIComponent(row.id)}`, revokedSchema, { method: "DELETE" });
      notify(sessionsMsg.ended);
      if (row.current) onEndedCurrent?.();
      else await queryClient.invalidateQueries({ queryKey: key });
      await queryClient.invalidateQueries({ queryKey: ["operators"] });
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(null);
      setEnding(null);
    }
  }

  const columns = [
    column<OperatorSessionRow>(
      "browser",
      sessionsMsg.browser,
      (row) => (
        <span className="flex min-w-0 items-center gap-2">
          <Truncate text={row.user_agent ?? row.browser}>{row.browser}</Truncate>
          {row.current ? <Tag tone="success">{sessionsMsg.current}</Tag> : null}
        </span>
      ),
      { grow: true, primary: true },
    ),
    column<OperatorSessionRow>("ip_address", sessionsMsg.address, (row) =>
      row.ip_address ? <span className="font-mono text-xs">{row.ip_address}</span> : <Muted>—</Muted>,
    ),
    dateColumn<OperatorSessionRow>("created_at", sessionsMsg.signedIn, (row) => row.created_at, true),
    column<OperatorSessionRow>("last_seen_at", sessionsMsg.lastSeen, (row) => <RelativeTime iso={row.last_seen_at} />),
    actionsColumn<OperatorSessionRow>((row) => (
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        aria-label={sessionsMsg.endLabel(row.browser)}
        disabled={busy !== null}
        onClick={() => (row.current ? setEnding(row) : void end(row))}
      >
        <LogOut className="h-3.5 w-3.5" aria-hidden /> {sessionsMsg.end}
      </button>
    )),
  ];

  return (
    <Modal
      open={open}
      title={operator ? sessionsMsg.titleOf(operator.email) : sessionsMsg.title}
      onClose={onClose}
      size="lg"
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm text-base-content/70">{sessionsMsg.intro}</p>
        {sessions.error ? <ErrorAlert error={sessions.error} /> : null}
        {failure ? <ErrorAlert error={failure} /> : null}
        <DataTable
          label={sessionsMsg.title}
          columns={columns}
          rows={sessions.data?.items}
          rowKey={(row) => row.id}
          loading={sessions.isPending}
          empty={sessionsMsg.none}
        />
      </div>
      <ConfirmDialog
        open={ending !== null}
        title={sessionsMsg.end}
        message={sessionsMsg.endCurrentConfirm}
        confirmLabel={sessionsMsg.end}
        busy={busy !== null}
        onConfirm={() => ending && void end(ending)}
        onCancel={() => setEnding(null)}
      />
    </Modal>
  );
}
