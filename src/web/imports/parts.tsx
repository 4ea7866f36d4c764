import { useEffect, useRef, type ReactNode } from "react";

/**
 * A step's heading: its section's name, focused when the operator arrives at the step (`focus`),
 * so that the keyboard and screen readers continue from the top of the new step.
 */
export function StepHeading({ id, focus, children }: { id: string; focus: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
    // On arrival only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1} className="text-base font-semibold outline-none">
      {children}
    </h2>
  );
}

/** A request's refusal under a step: the server's message, announced. */
export function StepError({ message }: { message: string | null }) {
  return message ? (
    <div role="alert" className="alert alert-error alert-soft text-sm">
      {message}
    </div>
  ) : null;
}

/** A field's message under it: the server's (or the screen's) refusal, else its hint (`hint`, kept one line high). */
export function FieldNote({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return error ? (
    <p id={id} className="text-xs font-medium text-error" role="alert" data-testid="field-error">
      {error}
    </p>
  ) : (
    <p id={id} className="min-h-4 truncate text-xs text-base-content/70" title={hint}>
      {hint}
    </p>
  );
}
