import { limits, msg } from "../../domain/messages";
import { titleCase } from "./format";

export type Tone = "success" | "error" | "warning" | "neutral" | "secondary" | "info";
const toneClass: Record<Tone, string> = {
  success: "badge-success",
  error: "badge-error",
  warning: "badge-warning",
  neutral: "badge-neutral",
  secondary: "badge-secondary",
  info: "badge-info",
};

/** Badge colours of SPEC.md §4, per kind of record. */
const palettes = {
  customer: { active: "success", inactive: "error", trial: "warning", other: "neutral" },
  team: { active: "success", inactive: "error", pending: "warning", other: "neutral" },
  user: { active: "success", inactive: "error", pending: "warning", other: "neutral" },
  skill: { active: "success", inactive: "error", other: "neutral" },
  assignment: { active: "success", inactive: "error", other: "neutral" },
  prompt: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  comment: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  platform: { active: "success", inactive: "error", draft: "warning", other: "secondary" },
} satisfies Record<string, Record<string, Tone> & { other: Tone }>;
export type BadgeKind = keyof typeof palettes;

/** The spec's colour of `status` for a record of `kind` (SPEC.md §4). */
export function statusTone(kind: BadgeKind, status: string): Tone {
  const palette: Record<string, Tone> = palettes[kind];
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
  empty = msg.users.noRoles,
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
        <span className="badge badge-ghost badge-sm whitespace-nowrap">{msg.users.moreRoles(roles.length - max)}</span>
      ) : null}
    </span>
  );
}
