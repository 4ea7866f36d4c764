import { Link } from "@tanstack/react-router";
import { History } from "lucide-react";
import { msg } from "../../domain/messages";

/** "History": the audit log of one record (shown to admins, who may read the audit log). */
export function HistoryLink({ entity, id }: { entity: string; id: string }) {
  return (
    <Link to="/audit" search={{ entity, entity_id: id }} className="btn btn-ghost btn-sm">
      <History className="h-4 w-4" aria-hidden /> {msg.audit.history}
    </Link>
  );
}
