import { useEffect, useState, type ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import type { OperatorRole } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { BackLink, FormSkeleton } from "./detail";
import { FormCard, FormPage } from "./forms";
import { RecordStates, type RecordKind, type Target } from "./RecordPage";
import { DocumentTitle } from "./ui";

/** What a form screen gives its form: Cancel, the way on after a save, and whether it is saved. */
export type FormScreenContext<R> = {
  /** The record being edited (edit screens). */
  record: R;
  /** The Cancel link (back where the screen came from), leaving without asking. */
  cancel: (allowLeave: () => void) => ReactNode;
  /**
   * After a save: goes to `target`, at once or after `afterMs` (the spec's "then returns after
   * 1.5 s"), the form read-only meanwhile (`locked`).
   */
  finish: (target: Target, afterMs?: number) => Promise<void>;
  locked: boolean;
};

/**
 * The one frame of every add and edit screen: the back link; for a role that may not change data,
 * "Your role can view but not change this" instead of the form; for an edit screen, the record's
 * load (a form-shaped skeleton, "not found", an error with Retry, SPEC.md §2); the form card with
 * its title and subtitle; the document title ("Edit Skill · Code Review · Skills · Pedal Console").
 * `children` renders the form with the screen's Cancel and way on.
 */
export function FormScreen<R = undefined>({
  section,
  title,
  subtitle,
  back,
  need,
  load,
  fields = 4,
  children,
}: {
  /** The screen family ("Skills"), for the document title and the load's messages. */
  section: string;
  title: string;
  subtitle?: ReactNode | ((record: R) => ReactNode);
  /** Where the back link and Cancel lead. */
  back: Target & { label: string };
  need?: OperatorRole;
  /** An edit screen's record: its query, its name (for the document title) and its kind (what to say when it cannot be shown). */
  load?: {
    query: UseQueryResult<R>;
    name: (record: R) => string;
    kind: RecordKind;
  };
  /** How many fields the skeleton shows while the record loads. */
  fields?: number;
  children: (context: FormScreenContext<R>) => ReactNode;
}) {
  const navigate = useNavigate();
  const [after, setAfter] = useState<{ target: Target; ms: number } | null>(null);

  useEffect(() => {
    if (!after) return;
    const timer = setTimeout(
      () => void navigate({ to: after.target.to, params: after.target.params } as never),
      after.ms,
    );
    return () => clearTimeout(timer);
  }, [after, navigate]);

  const context = (r: R): FormScreenContext<R> => ({
    record: r,
    cancel: (allowLeave) => (
      <Link
        to={back.to as "/"}
        params={back.params as never}
        activeOptions={{ exact: true }}
        activeProps={{ "aria-current": undefined }}
        className="btn btn-ghost"
        onClick={allowLeave}
      >
        {msg.ui.cancel}
      </Link>
    ),
    finish: async (target, afterMs) => {
      if (afterMs) setAfter({ target, ms: afterMs });
      else await navigate({ to: target.to, params: target.params } as never);
    },
    locked: after !== null,
  });
  // The title is set with the form (the load's own states set theirs).
  const card = (r: R) => (
    <FormCard title={title} subtitle={typeof subtitle === "function" ? subtitle(r) : subtitle}>
      <DocumentTitle parts={[title, load ? load.name(r) : undefined, section]} />
      {children(context(r))}
    </FormCard>
  );

  return (
    <FormPage need={need} back={<BackLink to={back.to} params={back.params} label={back.label} />}>
      {load ? (
        <RecordStates query={load.query} kind={load.kind} loading={<FormSkeleton fields={fields} />}>
          {card}
        </RecordStates>
      ) : (
        card(undefined as R)
      )}
    </FormPage>
  );
}
