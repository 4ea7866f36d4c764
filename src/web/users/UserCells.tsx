import { Link } from "@tanstack/react-router";
import { fallbacksMsg } from "../../domain/messages/kit";
import type { UserListItem } from "../../domain/users";
import { displayName, initials } from "../components/format";
import { RelativeTime } from "../components/text";
import { DirectoryIcon } from "../customers/public";

/**
 * The "User" cell: initials avatar, full name or email (linking to the user), and the email; both
 * cut with an ellipsis when long. A user the customer's directory manages has its mark after the
 * name, on the same line.
 */
export function UserCell({
  user,
}: {
  user: Pick<UserListItem, "user_id" | "email" | "first_name" | "last_name"> & { directory_managed?: boolean };
}) {
  const name = displayName(user);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <div className="avatar avatar-placeholder shrink-0" aria-hidden>
        <div className="w-8 rounded-full bg-primary/10 text-primary">
          <span className="text-xs font-semibold">{initials(name)}</span>
        </div>
      </div>
      <div className="min-w-0 text-left">
        <div className="flex min-w-0 items-center gap-1">
          <Link
            to="/users/$userId"
            params={{ userId: user.user_id }}
            className="block min-w-0 truncate font-medium hover:text-primary hover:underline"
            title={name}
          >
            {name}
          </Link>
          {user.directory_managed ? <DirectoryIcon kind="user" /> : null}
        </div>
        {name !== user.email ? (
          <div className="truncate text-xs text-base-content/70" title={user.email}>
            {user.email}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A last login as "3 hours ago" (the exact time and zone on hover), or "Never" (SPEC.md §2, §9). */
export function LastLogin({ iso }: { iso: string | null }) {
  return <RelativeTime iso={iso} fallback={fallbacksMsg.neverLoggedIn} />;
}
