import { useEffect, useState } from "react";
import { ssoMsg } from "../../domain/messages/common";
import type { SignInOptions, SsoRefusal } from "../../domain/sso";

/**
 * The refusal the single sign-on callback sent the browser back with (`?sso_error=`, docs/identity.md),
 * read once and taken out of the address bar so that a reload or a shared link does not show it again.
 */
function takeRefusal(): string | null {
  const url = new URL(window.location.href);
  const reason = url.searchParams.get("sso_error");
  if (reason === null) return null;
  url.searchParams.delete("sso_error");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  return Object.hasOwn(ssoMsg.refused, reason) ? ssoMsg.refused[reason as SsoRefusal] : ssoMsg.refused.failed;
}

/** GET /api/auth/providers; null when it cannot be read (the form alone is then shown). */
async function loadOptions(): Promise<SignInOptions | null> {
  try {
    const res = await fetch("/api/auth/providers", { credentials: "same-origin" });
    if (!res.ok) return null;
    const body = (await res.json()) as Partial<SignInOptions>;
    const sso = body.sso && typeof body.sso.label === "string" ? { id: "sso" as const, label: body.sso.label } : null;
    return { password: body.password !== false, sso };
  } catch {
    return null;
  }
}

/**
 * Under the login form: the single sign-on button when SSO is configured (its label from
 * SSO_BUTTON_LABEL), a note under SSO_ONLY that the form is for break-glass accounts, and the
 * message of a refused single sign-on in the form's alert style. Nothing without SSO.
 */
export function SsoSignIn() {
  const [options, setOptions] = useState<SignInOptions | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setRefusal(takeRefusal());
    let live = true;
    void loadOptions().then((loaded) => {
      if (live) setOptions(loaded);
    });
    return () => {
      live = false;
    };
  }, []);

  async function start() {
    setBusy(true);
    setRefusal(null);
    try {
      const res = await fetch("/api/auth/sign-in/social", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        // Back to the screen the sign-in started from (a shared link opens after sign-in).
        body: JSON.stringify({ provider: "sso", callbackURL: window.location.pathname + window.location.search }),
      });
      const body = (await res.json().catch(() => ({}))) as { url?: string };
      if (!res.ok || !body.url) throw new Error("no authorization URL");
      window.location.assign(body.url);
    } catch {
      setRefusal(ssoMsg.startFailed);
      setBusy(false);
    }
  }

  if (!options?.sso && !refusal) return null;
  return (
    <div className="card-body gap-4 pt-0" data-testid="sso">
      {options?.sso ? <div className="divider my-0 text-xs text-base-content/60">{ssoMsg.or}</div> : null}
      {options && !options.password ? (
        <p className="text-sm text-base-content/70">{ssoMsg.passwordBreakGlassOnly}</p>
      ) : null}
      {refusal ? (
        <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="sso-error">
          {refusal}
        </div>
      ) : null}
      {options?.sso ? (
        <button type="button" className="btn btn-outline" onClick={() => void start()} disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
          {busy ? ssoMsg.redirecting : options.sso.label}
        </button>
      ) : null}
    </div>
  );
}
