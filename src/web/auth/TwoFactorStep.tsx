import { useState, type FormEvent } from "react";
import { shellMsg } from "../../domain/messages/common";
import { useAuth, type SecondFactor } from "./AuthProvider";
import { formText } from "../lib/form-data";

/**
 * The sign-in's second step (docs/identity.md), shown by the login screen once the password was
 * right: the six-digit code from the authenticator app, or a recovery code instead (each works
 * once). A wrong code shows the server's message; an expired sign-in goes back to the password.
 */
export function TwoFactorStep() {
  const { verifySecondFactor, cancelSecondFactor } = useAuth();
  const [factor, setFactor] = useState<SecondFactor>("authenticator");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const app = factor === "authenticator";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), "code");
    setBusy(true);
    setError(null);
    const failure = await verifySecondFactor(code, factor);
    setBusy(false);
    if (failure) setError(failure);
  }

  return (
    <form className="card-body gap-4" onSubmit={onSubmit} aria-label={shellMsg.twoFactor.stepTitle}>
      <h2 className="text-lg font-semibold">{shellMsg.twoFactor.stepTitle}</h2>
      <p className="text-sm text-base-content/70">
        {app ? shellMsg.twoFactor.stepText : shellMsg.twoFactor.stepRecoveryText}
      </p>
      {error ? (
        <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="two-factor-error">
          {error}
        </div>
      ) : null}
      <label className="flex flex-col gap-1.5">
        <span className="text-sm font-medium">{app ? shellMsg.twoFactor.code : shellMsg.twoFactor.recoveryCode}</span>
        <input
          key={factor}
          name="code"
          required
          autoFocus
          autoComplete="one-time-code"
          inputMode={app ? "numeric" : "text"}
          pattern={app ? "[0-9 ]{6,7}" : undefined}
          maxLength={app ? 7 : 11}
          className="input w-full font-mono tracking-widest"
        />
      </label>
      <button type="submit" className="btn btn-primary mt-2" disabled={busy}>
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
        {busy ? shellMsg.twoFactor.verifying : shellMsg.twoFactor.verify}
      </button>
      <div className="flex flex-col items-center gap-1 text-sm">
        <button
          type="button"
          className="link link-primary"
          onClick={() => {
            setError(null);
            setFactor(app ? "recovery" : "authenticator");
          }}
        >
          {app ? shellMsg.twoFactor.useRecovery : shellMsg.twoFactor.useApp}
        </button>
        <button type="button" className="link" onClick={cancelSecondFactor}>
          {shellMsg.twoFactor.backToSignIn}
        </button>
      </div>
    </form>
  );
}
