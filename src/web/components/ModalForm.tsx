import type { LucideIcon } from "lucide-react";
import type { DefaultValues, FieldValues } from "react-hook-form";
import { FormFields, useEntityForm, type FieldSpec } from "./EntityForm";
import { FormError, ModalActions } from "./forms";
import { Modal } from "./overlays";

type Props<T extends FieldValues, O> = {
  open: boolean;
  /** The dialog's title. */
  title: string;
  onClose: () => void;
  schema: Parameters<typeof useEntityForm<T, O>>[0];
  fields: FieldSpec<T>[];
  /** The values a new form starts with (called again after each save, for a fresh one). */
  fresh: () => DefaultValues<T>;
  /** Sends the parsed values; a thrown ApiError shows on the form (its fields' errors on the fields). */
  save: (values: O) => Promise<void>;
  icon: LucideIcon;
  submitLabel: string;
  busyLabel: string;
};

/**
 * A record created in a dialog (Add Operator, Create Token): the form's fields as `FieldSpec`s
 * under the server's error, Cancel and the submit button. A save starts the next form afresh;
 * Cancel forgets what was typed and the last error. No unsaved-changes guard: the dialog is
 * closed on purpose.
 */
export function ModalForm<T extends FieldValues, O>(props: Props<T, O>) {
  const { open, title, onClose, schema, fields, fresh, save } = props;
  const { form, serverError, setServerError, submit } = useEntityForm<T, O>(
    schema,
    fresh(),
    async (values) => {
      await save(values);
      form.reset(fresh());
    },
    { guard: false },
  );
  const close = () => {
    form.reset(fresh());
    setServerError(null);
    onClose();
  };
  return (
    <Modal open={open} title={title} onClose={close}>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormError message={serverError} />
        <FormFields fields={fields} form={form} schema={schema} />
        <ModalActions
          onCancel={close}
          icon={props.icon}
          submitLabel={props.submitLabel}
          busyLabel={props.busyLabel}
          busy={form.formState.isSubmitting}
        />
      </form>
    </Modal>
  );
}
