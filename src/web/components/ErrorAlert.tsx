import { errorMessage } from "../api/client";

/**
 * The error of a failed load or action where it happened (the server's message, or a text),
 * announced to screen readers; nothing without one. `className` spaces it from what follows.
 */
export function ErrorAlert({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  return (
    <div role="alert" className={["alert alert-error alert-soft", className, "text-sm"].filter(Boolean).join(" ")}>
      {errorMessage(error)}
    </div>
  );
}
