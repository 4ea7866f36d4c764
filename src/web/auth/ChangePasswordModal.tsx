import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { changePasswordFormSchema, passwordMessages, type ChangePasswordFormInput } from "../../domain/password";
import { api } from "../api/client";
import { applyServerError, FormError, ModalActions } from "../components/forms";
import { Field } from "../components/inputs";
import { Modal } from "../components/overlays";
import { z } from "zod";
import { maxLengthOf } from "../../domain/text";

/** better-auth answers `{ token }` (a new session when others were ended); nothing of it is used. */
const changedSchema = z.unknown();
const empty: ChangePasswordFormInput = { currentPassword: "", newPassword: "", confirm: "" };

/** The dialog's three fields; the confirmation is only compared, so it has no length limit of its own. */
const passwordFields: Array<{
  name: keyof ChangePasswordFormInput;
  id: string;
  label: string;
  autoComplete: string;
  hint?: string;
}> = [
  { name: "currentPassword", id: "pw-current", label: passwordMessages.current, autoComplete: "current-password" },
  {
    name: "newPassword",
    id: "pw-new",
    label: passwordMessages.new,
    autoComplete: "new-password",
    hint: passwordMessages.hint,
  },
  { name: "confirm", id: "pw-confirm", label: passwordMessages.confirm, autoComplete: "new-password" },
];

/**
 * The user menu's "Change password" dialog: current password, new password twice, checked against
 * the console's one policy (src/domain/password.ts) before sending; the server's answers (wrong
 * current password, limits) show under the field or above the form. On success the operator's
 * other sessions end and `onChanged` is called.
 */
export function ChangePasswordModal({
  open,
  onClose,
  onChanged,
}: {
  open: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ChangePasswordFormInput, unknown, z.output<typeof changePasswordFormSchema>>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;
  const close = () => {
    form.reset(empty);
    setServerError(null);
    onClose();
  };
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setServerError(null);
    try {
      await api("/auth/change-password", changedSchema, {
        method: "POST",
        body: { currentPassword, newPassword, revokeOtherSessions: true },
      });
      form.reset(empty);
      onChanged();
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });
  return (
    <Modal open={open} title={passwordMessages.changeTitle} onClose={close}>
      <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <FormError message={serverError} />
        {passwordFields.map((f) => (
          <Field key={f.name} label={f.label} htmlFor={f.id} required error={errors[f.name]?.message} hint={f.hint}>
            <input
              id={f.id}
              type="password"
              className="input w-full"
              autoComplete={f.autoComplete}
              {...form.register(f.name)}
              maxLength={f.name === "confirm" ? undefined : maxLengthOf(changePasswordFormSchema.shape[f.name])}
            />
          </Field>
        ))}
        <ModalActions
          onCancel={close}
          icon={KeyRound}
          submitLabel={passwordMessages.submit}
          busyLabel={passwordMessages.submitting}
          busy={isSubmitting}
        />
      </form>
    </Modal>
  );
}
