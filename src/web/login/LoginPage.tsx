import { useState, type FormEvent } from "react";
import { loginMsg } from "../../domain/messages/common";
import { useAuth } from "../auth/AuthProvider";
import { OutsideFrame } from "../components/OutsideFrame";
import { SsoSignIn } from "./SsoSignIn";
import { TwoFactorStep } from "../auth/TwoFactorStep";
import { formText } from "../lib/form-data";

/** SPEC.md §2 "Sign-in gate": shown in place of any screen while nobody is signed in. */
export function LoginPage() {
  const { signIn, twoFactorPending } = useAuth();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const failure = await signIn(formText(form, "email"), formText(form, "password"));
    if (failure) setError(failure);
    // Signed in, or on to the code step (which stands in for the form): the button is free again.
    setBusy(false);
  }

  return (
    <OutsideFrame
      title={loginMsg.title}
      width="sm"
      lines={<p className="mt-1 text-base-content/70">{loginMsg.tagline}</p>}
    >
      {twoFactorPending ? <TwoFactorStep /> : null}
      {/* Hidden, not removed, during the code step: "Back to sign in" finds the email still typed. */}
      <form className="card-body gap-4" onSubmit={onSubmit} aria-label={loginMsg.title} hidden={twoFactorPending}>
        {error ? (
          <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="login-error">
            {error}
          </div>
        ) : null}
        <label className="flex flex-col gap-1.5">
          <span className="text-sm font-medium">{loginMsg.email}</span>
          <input name="email" type="email" required autoComplete="username" className="input w-full" autoFocus />
        </label>
        <label className="flex flex-col gap-1.5">
          <span className="text-sm font-medium">{loginMsg.password}</span>
          <input name="password" type="password" required autoComplete="current-password" className="input w-full" />
        </label>
        <button type="submit" className="btn btn-primary mt-2" disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
          {busy ? loginMsg.submitting : loginMsg.submit}
        </button>
      </form>
      {twoFactorPending ? null : <SsoSignIn />}
    </OutsideFrame>
  );
}
