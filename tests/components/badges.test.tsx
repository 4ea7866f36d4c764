import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { RoleBadges, StatusBadge, statusTone, type BadgeKind } from "../../src/web/components/badges";

/** SPEC.md §4's badge colours. */
const expected: Array<[BadgeKind, string, string]> = [
  ["customer", "active", "success"],
  ["customer", "inactive", "error"],
  ["customer", "trial", "warning"],
  ["customer", "archived", "neutral"],
  ["team", "active", "success"],
  ["team", "inactive", "error"],
  ["team", "pending", "warning"],
  ["user", "active", "success"],
  ["user", "inactive", "error"],
  ["user", "pending", "warning"],
  ["prompt", "active", "success"],
  ["prompt", "inactive", "error"],
  ["prompt", "pending", "warning"],
  ["prompt", "rejected", "error"],
  ["prompt", "draft", "secondary"],
  ["comment", "active", "success"],
  ["comment", "inactive", "error"],
  ["comment", "pending", "warning"],
  ["comment", "rejected", "error"],
  ["comment", "other", "secondary"],
];

describe("status badges", () => {
  it.each(expected)("%s %s is %s", (kind, status, tone) => {
    expect(statusTone(kind, status)).toBe(tone);
    render(<StatusBadge kind={kind} status={status} />);
    const badge = screen.getByText(status.charAt(0).toUpperCase() + status.slice(1));
    expect(badge.className).toContain(`badge-${tone}`);
    expect(badge.getAttribute("data-tone")).toBe(tone);
  });

  it("gives every badge, and 'No roles', one size", () => {
    render(
      <>
        <StatusBadge kind="user" status="active" />
        <RoleBadges roles={[]} />
      </>,
    );
    expect(screen.getByText("Active").className).toMatch(/\bbadge-sm\b/);
    expect(screen.getByText(msg.users.noRoles).className).toMatch(/\bbadge-sm\b/);
  });
});

describe("role badges", () => {
  it("shows admin red, manager warning, member neutral, two at most then '+N more'", () => {
    render(<RoleBadges roles={["admin", "manager", "member"]} />);
    expect(screen.getByText("Admin").className).toContain("badge-error");
    expect(screen.getByText("Manager").className).toContain("badge-warning");
    expect(screen.queryByText("Member")).toBeNull();
    expect(screen.getByText(msg.users.moreRoles(1))).toBeTruthy();
  });

  it("shows every role when allowed, and the chosen text when there is none", () => {
    const { rerender } = render(<RoleBadges roles={["admin", "manager", "member"]} max={3} />);
    expect(screen.getByText("Member").className).toContain("badge-neutral");
    rerender(<RoleBadges roles={[]} empty={msg.users.noRolesAssigned} />);
    expect(screen.getByText(msg.users.noRolesAssigned)).toBeTruthy();
  });
});
