import {
  BarChart3,
  History,
  ShieldCheck,
  Building2,
  LayoutDashboard,
  MessageCircle,
  MessageSquareText,
  MonitorSmartphone,
  Settings,
  Sparkles,
  Trash2,
  User,
  UsersRound,
  type LucideIcon,
} from "lucide-react";
import type { OperatorRole } from "../../domain/enums";
import { msg } from "../../domain/messages";

/** Sidebar entries in the spec's order (SPEC.md §1). */
export const navItems: Array<{ to: string; label: string; icon: LucideIcon; need?: OperatorRole }> = [
  { to: "/", label: msg.nav.dashboard, icon: LayoutDashboard },
  { to: "/customers", label: msg.nav.customers, icon: Building2 },
  { to: "/teams", label: msg.nav.teams, icon: UsersRound },
  { to: "/users", label: msg.nav.users, icon: User },
  { to: "/skills", label: msg.nav.skills, icon: Sparkles },
  { to: "/platforms", label: msg.nav.platforms, icon: MonitorSmartphone },
  { to: "/prompts", label: msg.nav.prompts, icon: MessageSquareText },
  { to: "/comments", label: msg.nav.comments, icon: MessageCircle },
  { to: "/analytics", label: msg.nav.analytics, icon: BarChart3 },
  { to: "/config", label: msg.nav.config, icon: Settings },
  // Admins and editors: what they deleted can be restored for 30 days (docs/undo-and-restore.md).
  { to: "/deleted", label: msg.deleted.title, icon: Trash2, need: "editor" },
];

/** Administration entries, shown to admins only. */
export const adminNavItems: Array<{ to: string; label: string; icon: LucideIcon }> = [
  { to: "/operators", label: msg.nav.operators, icon: ShieldCheck },
  { to: "/audit", label: msg.nav.audit, icon: History },
];
