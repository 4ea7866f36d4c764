import { useState } from "react";
import { useForm } from "react-hook-form";
import { ShieldCheck } from "lucide-react";
import { reauthMsg } from "../../domain/messages/account";
import { reauthenticatedSchema } from "../../domain/operators";
import { api } from "../api/client";
import { applyServerError, FormError, ModalActions } from "../components/forms";
import { Field } from "../components/inputs";
import { Modal } from "../components/overlays";

type Values = { current_password: string; code: string };
const empty: Values = { current_password: "", code: "" };
const t = reauthMsg;

/** The one answer the dialog asks for: the password, or a code of the authenticator app. */
const inputs = {
  current_password: {
    id: "reauth-password",
    label: t.password,
    type: "password",
    inputMode: undefined,
    autoComplete: "current-password",
    maxLength: 1024,
  },
  code: {
    id: "reauth-code",
    label: t.code,
    type: "text",
    inputMode: "numeric",
    autoComplete: "one-time-code",
    maxLength: 6,
  },
} as const;

/**
 * "Confirm it is you" (docs/identity.md): asked when an admin action on operators' credentials
 * answers 403 `reauthentication_required`. The password, or a code of the authenticator app when
 * the operator has one; wrong answers show under the field. `onDone(true)` once confirmed (the
 * action is sent again), `onDone(false)` on Cancel.
 */
export function ReauthDialog({ twoFactor, onDone }: { twoFactor: boolean; onDone: (confirmed: boolean) => void }) {
  const [useCode, setUseCode] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: empty });
  const { errors, isSubmitting } = form.formState;
  const field = useCode ? "code" : "current_password";
  const input = inputs[field];
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    const value = values[field].trim();
    if (!value) {
      form.setError(field, { message: t.oneOf });
      return;
    }
    try {
      await api("/account/reauthenticate", reauthenticatedSchema, { method: "POST", body: { [field]: value } });
      onDone(true);
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });
  const switchTo = (code: boolean) => {
    form.reset(empty);
    setServerError(null);
    setUseCode(code);
  };
  return (
    <Modal open title={t.title} onClose={() => onDone(false)}>
      <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <p className="text-sm">{useCode ? t.introCode : t.intro}</p>
        <FormError message={serverError} />
        <Field label={input.label} htmlFor={input.id} required error={errors[field]?.message}>
          <input
            key={input.id}
            id={input.id}
            type={input.type}
            className="input w-full"
            inputMode={input.inputMode}
            autoComplete={input.autoComplete}
            maxLength={input.maxLength}
            autoFocus
            {...form.register(field)}
          />
        </Field>
        {twoFactor ? (
          <button type="button" className="btn btn-link btn-sm self-start px-0" onClick={() => switchTo(!useCode)}>
            {useCode ? t.usePassword : t.useCode}
          </button>
        ) : null}
        <ModalActions
          onCancel={() => onDone(false)}
          icon={ShieldCheck}
          submitLabel={t.submit}
          busyLabel={t.submitting}
          busy={isSubmitting}
        />
      </form>
    </Modal>
  );
}
