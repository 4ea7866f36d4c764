import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError, errorMessage } from "../api/client";

/**
 * Puts a failed mutation's field messages on the form's fields and returns the message for the
 * red box (the server's own message).
 */
export function applyServerError<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): string {
  if (error instanceof ApiError && error.fields) {
    for (const [field, message] of Object.entries(error.fields)) {
      if (field) setError(field as Path<T>, { type: "server", message });
    }
  }
  return errorMessage(error);
}

/** A red box with a server error, above a form (SPEC.md §8). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="form-error">
      {message}
    </div>
  );
}

/** A card holding a form, with a title. */
export function FormCard({ title, subtitle, children }: { title: string; subtitle?: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5">
          <div>
            <h1 className="text-xl font-semibold">{title}</h1>
            {subtitle ? <p className="mt-1 text-sm text-base-content/70">{subtitle}</p> : null}
          </div>
          {children}
        </div>
      </div>
    </div>
  );
}
