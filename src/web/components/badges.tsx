import { limits, msg } from "../../domain/messages";
import { titleCase } from "./format";

type Tone = "success" | "error" | "warning" | "neutral" | "secondary";
const toneClass: Record<Tone, string> = {
  success: "badge-success",
  error: "badge-error",
  warning: "badge-warning",
  neutral: "badge-neutral",
  secondary: "badge-secondary",
};

/** Badge colours of SPEC.md §4, per kind of record. */
const palettes: Record<string, Record<string, Tone> & { other: Tone }> = {
  customer: { active: "success", inactive: "error", trial: "warning", other: "neutral" },
  team: { active: "success", inactive: "error", pending: "warning", other: "neutral" },
  user: { active: "success", inactive: "error", pending: "warning", other: "neutral" },
  skill: { active: "success", inactive: "error", other: "neutral" },
  assignment: { active: "success", inactive: "error", other: "neutral" },
  prompt: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  comment: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  platform: { active: "success", inactive: "error", draft: "warning", other: "secondary" },
};

/** A status badge in the spec's colour for `kind`. */
export function StatusBadge({ status, kind }: { status: string; kind: keyof typeof palettes }) {
  const palette = palettes[kind];
  const tone = palette[status] ?? palette.other;
  return <span className={`badge badge-soft badge-sm whitespace-nowrap font-medium ${toneClass[tone]}`}>{titleCase(status)}</span>;
}

const roleTone: Record<string, Tone> = { admin: "error", manager: "warning", member: "neutral" };

/** Roles as badges: admin red, manager warning, member neutral; two at most, then "+N more"; "No roles" when none. */
export function RoleBadges({ roles, max = limits.maxRoleBadges, empty = msg.users.noRoles }: { roles: string[]; max?: number; empty?: string }) {
  if (roles.length === 0) return <span className="text-sm text-base-content/60">{empty}</span>;
  const shown = roles.slice(0, max);
  return (
    <span className="flex items-center gap-1 whitespace-nowrap">
      {shown.map((role) => (
        <span key={role} className={`badge badge-soft badge-sm font-medium ${toneClass[roleTone[role] ?? "neutral"]}`}>{titleCase(role)}</span>
      ))}
      {roles.length > max ? <span className="text-xs text-base-content/70">{msg.users.moreRoles(roles.length - max)}</span> : null}
    </span>
  );
}
