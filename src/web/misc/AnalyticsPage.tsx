import { BarChart3 } from "lucide-react";
import { msg } from "../../domain/messages";
import { PageHeader } from "../components/ui";

/** SPEC.md §2 "/analytics": heading and the coming-soon text. */
export default function AnalyticsPage() {
  return (
    <>
      <PageHeader title={msg.analytics.title} />
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body items-center py-16 text-center">
          <BarChart3 className="h-12 w-12 text-primary" aria-hidden />
          <p className="max-w-md text-base-content/80">{msg.analytics.text}</p>
        </div>
      </div>
    </>
  );
}
