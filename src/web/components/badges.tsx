import { limits } from "../../domain/messages/kit";
import { usersMsg } from "../../domain/messages/users";
import { palettes } from "../lib/features";
import type { BadgeKind, Tone } from "../lib/routes";
import { titleCase } from "./format";

const toneClass: Record<Tone, string> = {
  success: "badge-success",
  error: "badge-error",
  warning: "badge-warning",
  neutral: "badge-neutral",
  secondary: "badge-secondary",
  info: "badge-info",
};

export type { BadgeKind, Tone };

/** The spec's colour of `status` for a record of `kind` (SPEC.md §4). */
export function statusTone(kind: BadgeKind, status: string): Tone {
  // Badge colours of SPEC.md §4, declared by each kind's feature (its `routes.ts`).
  const palette = palettes[kind];
  return palette[status] ?? palette.other;
}

/** Every badge of the console has this one size and shape. */
const badgeBase = "badge badge-soft badge-sm whitespace-nowrap font-medium";

/** A small labelled tag in one of the tones (e.g. "Global"). */
export function Tag({ tone = "neutral", children }: { tone?: Tone; children: React.ReactNode }) {
  return (
    <span className={`${badgeBase} gap-1 ${toneClass[tone]}`} data-tone={tone}>
      {children}
    </span>
  );
}

/** A status badge in the spec's colour for `kind`. */
export function StatusBadge({ status, kind }: { status: string; kind: BadgeKind }) {
  return <Tag tone={statusTone(kind, status)}>{titleCase(status)}</Tag>;
}

const roleTone: Record<string, Tone> = { admin: "error", manager: "warning", member: "neutral" };

/** Roles as badges: admin red, manager warning, member neutral; two at most, then "+N more"; "No roles" when none, at badge size. */
export function RoleBadges({
  roles,
  max = limits.maxRoleBadges,
  empty = usersMsg.noRoles,
}: {
  roles: string[];
  max?: number;
  empty?: string;
}) {
  if (roles.length === 0)
    return <span className="badge badge-ghost badge-sm whitespace-nowrap text-base-content/70">{empty}</span>;
  const shown = roles.slice(0, max);
  // The badges stay on one line; only "+N more" may go under them in a narrow column.
  return (
    <span className="flex flex-wrap items-center gap-1">
      <span className="flex items-center gap-1">
        {shown.map((role) => (
          <Tag key={role} tone={roleTone[role] ?? "neutral"}>
            {titleCase(role)}
          </Tag>
        ))}
      </span>
      {roles.length > max ? (
        <span className="badge badge-ghost badge-sm whitespace-nowrap">{usersMsg.moreRoles(roles.length - max)}</span>
      ) : null}
    </span>
  );
}
