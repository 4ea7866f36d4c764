import { useState, type ReactNode } from "react";
import { AlertTriangle, Check, Copy, KeyRound, Trash2 } from "lucide-react";
import type { ApiTokenRow, CreatedApiToken } from "../../domain/api-tokens";
import { uiMsg } from "../../domain/messages/kit";
import { apiTokensMsg, deliveryMsg } from "../../domain/messages/tokens";
import { Tag } from "../components/badges";
import { column } from "../components/columns";
import type { Column } from "../components/DataTable";
import { formatDateTime, titleCase } from "../components/format";
import { Modal } from "../components/overlays";
import { DateText, Muted, RelativeTime } from "../components/text";

/** Whether a token has expired (`now` in ms; the server refuses it from then on). */
const isExpired = (t: ApiTokenRow, now: number) => new Date(t.expires_at).getTime() <= now;

/** What every kind of token shows in a list: its name, its first characters, and when it was revoked. */
type TokenLike = { name: string; prefix: string; revoked_at: string | null };

/** A token's name column (`label` its header) and its first characters. */
export function tokenNameColumns<T extends TokenLike>(label: string): Column<T>[] {
  return [
    column<T>("name", label, (t) => <span className="font-medium">{t.name}</span>, { grow: true }),
    column<T>("prefix", apiTokensMsg.prefix, (t) => <code className="font-mono text-xs">{t.prefix}…</code>),
  ];
}

/** "Revoked" (with when on hover) for a revoked token, else `live`. */
export function revokedOr<T extends TokenLike>(t: T, live: ReactNode): ReactNode {
  return t.revoked_at ? (
    <span title={apiTokensMsg.revokedOn(formatDateTime(t.revoked_at))}>
      <Tag tone="error">{apiTokensMsg.revokedTag}</Tag>
    </span>
  ) : (
    live
  );
}

/** The Revoke button of each live row (`label` its words; none where `canRevoke` says no). */
export function revokeColumn<T extends TokenLike>(
  label: string,
  revoke: (row: T) => void,
  canRevoke: (row: T) => boolean = () => true,
): Column<T> {
  return column<T>(
    "actions",
    uiMsg.actions,
    (t) =>
      t.revoked_at || !canRevoke(t) ? null : (
        <div className="flex justify-end">
          <button
            type="button"
            className="btn btn-ghost btn-xs text-error"
            aria-label={`${label} ${t.name}`}
            onClick={() => revoke(t)}
          >
            <Trash2 className="h-4 w-4" aria-hidden /> {label}
          </button>
        </div>
      ),
    { actions: true },
  );
}

/**
 * The columns every API token list shows, in this order: name, token (its first characters), role,
 * platform (a delivery token's; "All routes" otherwise), created, expires (Expired once past,
 * Revoked once revoked, with when on hover), last used (Never when unused); `revoke` adds the
 * Revoke button of each live row.
 */
export function tokenColumns<T extends ApiTokenRow>(revoke: (row: T) => void, now: number): Column<T>[] {
  return [
    ...tokenNameColumns<T>(apiTokensMsg.name),
    column<T>("role", apiTokensMsg.role, (t) => <Tag>{titleCase(t.role)}</Tag>),
    column<T>("platform", deliveryMsg.column, (t) =>
      t.platform_name ? <span className="text-sm">{t.platform_name}</span> : <Muted>{deliveryMsg.allRoutes}</Muted>,
    ),
    column<T>("created_at", apiTokensMsg.created, (t) => <DateText iso={t.created_at} />),
    column<T>("expires_at", apiTokensMsg.expires, (t) =>
      revokedOr(
        t,
        isExpired(t, now) ? <Tag tone="error">{apiTokensMsg.expired}</Tag> : <DateText iso={t.expires_at} />,
      ),
    ),
    column<T>("last_used_at", apiTokensMsg.lastUsed, (t) =>
      t.last_used_at ? <RelativeTime iso={t.last_used_at} /> : <Muted>{apiTokensMsg.neverUsed}</Muted>,
    ),
    revokeColumn<T>(apiTokensMsg.revoke, revoke),
  ];
}

/** The time lists compare expiries with: the screen's opening (a token expiring meanwhile is refused by the server anyway). */
export function useNow(): number {
  const [now] = useState(() => Date.now());
  return now;
}

/** What the API tokens page says of a new token: its name, role, platform and expiry. */
export function apiTokenFacts(created: CreatedApiToken): ReactNode {
  return (
    <>
      <span className="font-medium">{created.name}</span> · {titleCase(created.role)}
      {created.platform_name ? ` · ${created.platform_name}` : ""} · {apiTokensMsg.expires}{" "}
      <DateText iso={created.expires_at} />
    </>
  );
}

/**
 * The one time a new token is shown (an API token, a customer's directory token): the token with a
 * Copy button and the warning that it cannot be read again, under `facts` (what the token is);
 * Done (or closing) forgets it.
 */
export function NewTokenModal<T extends { token: string }>({
  created,
  onClose,
  facts,
  title = apiTokensMsg.createdTitle,
}: {
  created: T | null;
  onClose: () => void;
  facts: (created: T) => ReactNode;
  title?: string;
}) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  const copy = () => {
    if (!created) return;
    void navigator.clipboard?.writeText(created.token).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Modal
      open={created !== null}
      title={title}
      onClose={close}
      footer={
        <button type="button" className="btn btn-primary" onClick={close}>
          <KeyRound className="h-4 w-4" aria-hidden /> {apiTokensMsg.done}
        </button>
      }
    >
      {created ? (
        <div className="flex flex-col gap-4">
          <div role="alert" className="alert alert-warning alert-soft text-sm">
            <AlertTriangle className="h-4 w-4" aria-hidden />
            <span>{apiTokensMsg.createdWarning}</span>
          </div>
          <div className="text-sm">{facts(created)}</div>
          <div className="join w-full">
            <input
              className="input join-item w-full font-mono text-xs"
              readOnly
              aria-label={title}
              data-testid="new-token"
              value={created.token}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" className="btn join-item" onClick={copy}>
              {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}{" "}
              {copied ? apiTokensMsg.copied : apiTokensMsg.copy}
            </button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
