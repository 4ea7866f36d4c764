import { useEffect, useState, type ReactNode } from "react";
import { useQuery, useQueryClient, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { OperatorRole } from "../../domain/enums";
import { shellMsg } from "../../domain/messages/common";
import { editMsg } from "../../domain/messages/edit";
import { errorMessage } from "../api/client";
import { BackLink, FormSkeleton } from "./detail";
import { FormCard, FormPage } from "./forms";
import { RecordStates, type RecordKind, type Target } from "./RecordPage";
import { DocumentTitle, ErrorState } from "./ui";
import { EntityForm, type FieldSpec, type FormNotice, type SaveConfirm, type SaveOptions } from "./EntityForm";
import type { DefaultValues, FieldValues } from "react-hook-form";
import { notify } from "./overlays";
import { TargetLink } from "./TargetLink";
import { flatFields, newValues, recordValues } from "./form-values";

/** What a form screen gives its form: Cancel, the way on after a save, and whether it is saved. */
export type FormScreenContext<R> = {
  /** The record being edited (edit screens). */
  record: R;
  /** The Cancel link (back where the screen came from); with unsaved changes, the leave guard asks first. */
  cancel: ReactNode;
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
    const timer = setTimeout(() => void navigate(after.target), after.ms);
    return () => clearTimeout(timer);
  }, [after, navigate]);

  const context = (r: R): FormScreenContext<R> => ({
    record: r,
    cancel: (
      <TargetLink {...back} className="btn btn-ghost">
        {shellMsg.ui.cancel}
      </TargetLink>
    ),
    finish: async (target, afterMs) => {
      if (afterMs) setAfter({ target, ms: afterMs });
      else await navigate(target);
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
    <FormPage need={need} back={<BackLink {...back} />}>
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

/** The texts of an entity's add and edit screens, as its messages (`usersMsg`) name them. */
export type FormTexts = {
  addTitle: string;
  addSubtitle: string;
  editTitle: string;
  editSubtitle: string;
  create: string;
  creating: string;
  created: string;
  /** The edit screen's button; "Save Changes" when the entity has none of its own. */
  save?: string;
  saving?: string;
  /** The notice after an edit; none when the entity has none. */
  updated?: string;
};

/** What an entity's add and edit screens share: the kind of record, the texts, the form. */
type FormBase<T extends FieldValues, O> = {
  /** The kind of record: its section, what its load says when it fails, its list (the add screen's back link). */
  kind: RecordKind;
  texts: FormTexts;
  schema: Parameters<typeof EntityForm<T, O>>[0]["schema"];
  fields: FieldSpec<T>[];
  /** 409 codes the operator may confirm, with what to show of each. */
  warnings?: Parameters<typeof EntityForm<T, O>>[0]["warnings"];
  /** What the form waits for (its pickers' options): a notice above the fields, and the form disabled meanwhile. */
  useFormState?: () => FormState;
};

/**
 * A form's parts both its screens share (`...form` in `addScreen` and `editScreen`), declared once:
 * its fields are typed by its schema's input.
 */
export const formOf = <T extends FieldValues, O>(form: FormBase<T, O>): FormBase<T, O> => form;

/**
 * What a form waits for: a notice above the fields, and whether the form is disabled meanwhile;
 * and what its save will do, when it needs saying (`submitHint`, under the button).
 */
export type FormState = { notice: FormNotice | null; disabled: boolean; submitHint?: ReactNode };

/**
 * The `useFormState` of a form that needs an active record of another kind to be chosen (a
 * prompt's skill, a user's customer): `query` asks whether any exists (the picker itself asks the
 * server for the options), and the form stays disabled until one can be chosen. Meanwhile the notice
 * says `loading` (if given), the load's `error`, or `none` when there is none.
 */
export function needsOneOf<T extends { items: readonly unknown[] }, K extends readonly unknown[]>(
  query: UseQueryOptions<T, Error, T, K>,
  texts: { loading?: string; error: (message: string) => string; none: string },
): () => FormState {
  return function useNeedsOneOf() {
    const options = useQuery(query);
    const none = options.isSuccess && options.data.items.length === 0;
    const notice: FormNotice | null =
      options.isPending && texts.loading
        ? { tone: "info", text: texts.loading }
        : options.isError
          ? { tone: "error", text: texts.error(errorMessage(options.error)) }
          : none
            ? { tone: "warning", text: texts.none }
            : null;
    return { notice, disabled: !options.isSuccess || none };
  };
}

/** A save's mutation (`useApiMutation`). */
type Save<I, C> = { mutateAsync: (input: I) => Promise<C> };

/** `send` of a form whose values are its create request as they are. */
export const sendValues = <O,>(values: O): O => values;

/** `send` of an edit form whose values are its update request as they are, sent with the version read. */
export const sendWithVersion = <O,>(values: O, { ifMatch }: SaveOptions): O & { ifMatch?: string } => ({
  ...values,
  ifMatch,
});

/**
 * An add screen, declared: `defaults`, the create mutation (`useCreate`, and `send`, which makes its
 * input of the form's values: `sendValues` when they are the same), and after a save (`created`) the notice's link to the new record and
 * where the screen goes on, at once or after `afterMs`.
 */
export type AddDeclaration<T extends FieldValues, O, I, C> = FormBase<T, O> & {
  /** The new record's values; by default each field empty, a select on its first option (`newValues`). */
  defaults?: DefaultValues<T>;
  useCreate: () => Save<I, C>;
  send: (values: O, options: SaveOptions) => I;
  created: (record: C) => { to: Target; link?: Target & { label: string }; afterMs?: number };
};

/**
 * An edit screen, declared: the record's id (`useId`, from the route), its query, the form's
 * values of it (also a stale save's current record on Reload), its name for the document title,
 * the update mutation (`useUpdate`; `send` makes its input of the values and the save's options: `sendWithVersion` sends them as they are with `ifMatch`),
 * and the way back to the record, where a save returns (after `afterMs`). `missing` is what an
 * empty id says; `reload` refetches the record after Reload of a stale save.
 */
export type EditDeclaration<
  T extends FieldValues,
  O,
  I extends object,
  R extends { updated_at: string | null },
  K extends readonly unknown[],
> = FormBase<T, O> & {
  useId: () => string;
  query: (id: string) => UseQueryOptions<R, Error, R, K>;
  /** The form's values of the record; by default each field's column as it is (`recordValues`). */
  values?: (record: R) => DefaultValues<T>;
  name: (record: R) => string;
  /** PATCH: takes the request `send` makes, less the fields the operator left as they were. */
  useUpdate: (id: string) => Save<NoInfer<Partial<I>>, unknown>;
  send: (values: O, options: SaveOptions) => I;
  back: (id: string) => Target & { label: string };
  subtitle?: (record: R) => ReactNode;
  afterMs?: number;
  missing?: string;
  reload?: boolean;
  /** How many fields the skeleton shows while the record loads. */
  skeleton?: number;
  /** What a save of the record's changed fields asks first (`EntityForm`'s `confirmSave`), or null. */
  confirmSave?: (record: R, changed: ReadonlySet<string>) => SaveConfirm | null;
};

/**
 * A screen component. A form module's screens are declared with this type: their inferred type
 * would depend on the module's queries, which the route table (and so the query roots' type)
 * depends on.
 */
export type Screen = () => ReactNode;

/** An entity's add screen (`/<entities>/add`) from its declaration. */
export function addScreen<T extends FieldValues, O, I, C>(add: AddDeclaration<T, O, I, C>): Screen {
  const { kind, texts, useCreate, useFormState = noFormState } = add;
  const defaults = add.defaults ?? newValues(add.fields);
  return function AddScreen() {
    const create = useCreate();
    const state = useFormState();
    return (
      <FormScreen section={kind.section} title={texts.addTitle} subtitle={texts.addSubtitle} back={kind.list}>
        {({ cancel, finish, locked }) => (
          <EntityForm
            schema={add.schema}
            fields={add.fields}
            defaults={defaults}
            warnings={add.warnings}
            {...state}
            locked={locked}
            submitLabel={texts.create}
            busyLabel={texts.creating}
            cancel={cancel}
            onSubmit={async (values, options) => {
              const record = await create.mutateAsync(add.send(values, options));
              const { to, link, afterMs } = add.created(record);
              notify(texts.created, link ? { link } : {});
              await finish(to, afterMs);
            }}
          />
        )}
      </FormScreen>
    );
  };
}

/** An entity's edit screen (`/<entities>/$id/edit`) from its declaration. */
export function editScreen<
  T extends FieldValues,
  O,
  I extends object,
  R extends { updated_at: string | null },
  K extends readonly unknown[],
>(edit: EditDeclaration<T, O, I, R, K>): Screen {
  const { kind, texts, useUpdate, useFormState = noFormState } = edit;
  const values = edit.values ?? ((record: R) => recordValues(edit.fields, record));
  const fieldNames = new Set(flatFields(edit.fields).map((f) => f.name));
  function EditRecord({ id }: { id: string }) {
    const query = useQuery(edit.query(id));
    const update = useUpdate(id);
    const state = useFormState();
    const queryClient = useQueryClient();
    const back = edit.back(id);
    const { label: _label, ...target } = back;
    return (
      <FormScreen
        section={kind.section}
        title={texts.editTitle}
        subtitle={edit.subtitle ?? texts.editSubtitle}
        back={back}
        load={{ query, name: edit.name, kind }}
        fields={edit.skeleton}
      >
        {({ record, cancel, finish, locked }) => (
          <EntityForm
            schema={edit.schema}
            fields={edit.fields}
            defaults={values(record)}
            version={{
              updatedAt: record.updated_at,
              reset: (current) => values(current as R),
              onReload: edit.reload
                ? () => void queryClient.invalidateQueries({ queryKey: edit.query(id).queryKey })
                : undefined,
            }}
            warnings={edit.warnings}
            {...state}
            locked={locked}
            submitLabel={texts.save ?? editMsg.save}
            busyLabel={texts.saving ?? editMsg.saving}
            cancel={cancel}
            confirmSave={edit.confirmSave ? (changed) => edit.confirmSave?.(record, changed) ?? null : undefined}
            onSubmit={async (values, options) => {
              // Only the fields the operator changed are sent; nothing changed, nothing to send.
              if (options.changed?.size !== 0) {
                await update.mutateAsync(changesOnly(edit.send(values, options), fieldNames, options.changed));
                if (texts.updated) notify(texts.updated);
              }
              await finish(target, edit.afterMs);
            }}
          />
        )}
      </FormScreen>
    );
  }
  return function EditScreen() {
    const id = edit.useId();
    if (edit.missing && !id.trim()) return <ErrorState title={edit.missing} />;
    return <EditRecord id={id} />;
  };
}

/**
 * An edit's request without the form's fields the operator did not change (`changed`; all kept
 * when not known), so a save never writes back a value someone else changed meanwhile; what is not
 * a field (the version, a confirmation) is kept.
 */
function changesOnly<I extends object>(
  request: I,
  fields: ReadonlySet<string>,
  changed?: ReadonlySet<string>,
): Partial<I> {
  const out: Partial<I> = {};
  for (const key in request) if (!changed || changed.has(key) || !fields.has(key)) out[key] = request[key];
  return out;
}

/** A form that waits for nothing. */
const noFormState = () => ({ notice: null, disabled: false });
