import { useState, type FormEvent, type ReactNode } from "react";
import { QRCodeSVG } from "qrcode.react";
import { Copy, Download, LogOut, ShieldCheck } from "lucide-react";
import { z } from "zod";
import { twoFactorMsg } from "../../domain/messages/account";
import { appMsg, shellMsg } from "../../domain/messages/common";
import { enableTwoFactorAnswerSchema } from "../../domain/two-factor";
import { api, errorMessage } from "../api/client";
import { FormError } from "../components/forms";
import { Field } from "../components/inputs";
import { OutsideFrame } from "../components/OutsideFrame";
import { Modal, notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { useAuth } from "./AuthProvider";
import { formText } from "../lib/form-data";

/** Answers whose content the screens do not use (the new session's token). */
const anyAnswer = z.unknown();

/** The secret of an `otpauth://` URI, in groups of four as authenticator apps show it. */
function setupKeyOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/**
 * A one-time code box: an authenticator app's six digits (`app`, shown spaced as "123 456"), or
 * either that or a recovery code (up to 30 characters).
 */
function CodeField({ id, label, hint, app = false }: { id: string; label: string; hint?: string; app?: boolean }) {
  return (
    <Field label={label} htmlFor={id} required hint={hint}>
      <input
        id={id}
        name="code"
        className={`input w-full font-mono ${app ? "tracking-widest" : ""}`}
        inputMode={app ? "numeric" : undefined}
        autoComplete="one-time-code"
        required
        maxLength={app ? 7 : 30}
      />
    </Field>
  );
}

/** A form's one submit button, on the right. */
function SubmitRow({ busy, tone = "btn-primary", children }: { busy: boolean; tone?: string; children: ReactNode }) {
  return (
    <div className="flex justify-end">
      <button type="submit" className={`btn ${tone}`} disabled={busy}>
        {children}
      </button>
    </div>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={() =>
        void navigator.clipboard
          ?.writeText(text)
          .then(() => setCopied(true))
          .catch(() => undefined)
      }
    >
      <Copy className="h-4 w-4" aria-hidden /> {copied ? twoFactorMsg.copied : label}
    </button>
  );
}

type Stage =
  { kind: "password" } | { kind: "scan"; totpURI: string; codes: string[] } | { kind: "codes"; codes: string[] };

/**
 * Setting up an authenticator app (docs/identity.md): the password, then the QR code and the setup
 * key with a six-digit code to confirm, then the ten recovery codes, shown this once with Copy and
 * Download. `onDone` follows the recovery codes (the session is read again then, not before: a
 * screen REQUIRE_MFA holds would otherwise close before the codes are seen).
 */
export function TwoFactorSetupFlow({ onDone }: { onDone: () => void }) {
  const [stage, setStage] = useState<Stage>({ kind: "password" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(event: FormEvent<HTMLFormElement>, work: (form: FormData) => Promise<void>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await work(form);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (stage.kind === "password")
    return (
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(e) =>
          void run(e, async (form) => {
            const answer = await api("/auth/two-factor/enable", enableTwoFactorAnswerSchema, {
              method: "POST",
              body: { password: formText(form, "password") },
            });
            setStage({ kind: "scan", totpURI: answer.totpURI, codes: answer.backupCodes });
          })
        }
      >
        <p className="text-sm">{twoFactorMsg.passwordPrompt}</p>
        <FormError message={error} />
        <PasswordField id="tf-password" />
        <SubmitRow busy={busy}>{twoFactorMsg.continue}</SubmitRow>
      </form>
    );

  if (stage.kind === "scan") {
    const key = setupKeyOf(stage.totpURI);
    return (
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(e) =>
          void run(e, async (form) => {
            await api("/auth/two-factor/verify-totp", anyAnswer, {
              method: "POST",
              body: { code: formText(form, "code") },
            });
            setStage({ kind: "codes", codes: stage.codes });
          })
        }
      >
        <p className="text-sm">{twoFactorMsg.scanText}</p>
        <div className="flex justify-center rounded-box bg-white p-3">
          <QRCodeSVG value={stage.totpURI} size={176} title={twoFactorMsg.qrLabel} marginSize={1} />
        </div>
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium" id="tf-key-label">
            {twoFactorMsg.setupKey}
          </span>
          <div className="flex items-center gap-2">
            <code
              className="flex-1 select-all break-all rounded bg-base-200 px-2 py-1 font-mono text-sm"
              aria-labelledby="tf-key-label"
              data-testid="two-factor-setup-key"
            >
              {key}
            </code>
            <CopyButton text={key.replace(/\s/g, "")} label={twoFactorMsg.copy} />
          </div>
        </div>
        <FormError message={error} />
        <CodeField id="tf-code" label={shellMsg.twoFactor.code} hint={twoFactorMsg.codePrompt} app />
        <SubmitRow busy={busy}>
          <ShieldCheck className="h-4 w-4" aria-hidden /> {busy ? twoFactorMsg.confirming : twoFactorMsg.confirm}
        </SubmitRow>
      </form>
    );
  }

  const text = stage.codes.join("\n");
  return (
    <div className="flex flex-col gap-4">
      <div role="status" className="alert alert-success alert-soft text-sm">
        {twoFactorMsg.enabled}
      </div>
      <h3 className="font-semibold">{twoFactorMsg.recoveryTitle}</h3>
      <p className="text-sm">{twoFactorMsg.recoveryText}</p>
      <ol
        className="grid grid-cols-2 gap-2 rounded-box bg-base-200 p-3 font-mono text-sm"
        data-testid="recovery-codes"
        aria-label={twoFactorMsg.recoveryTitle}
      >
        {stage.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap justify-end gap-2">
        <CopyButton text={text} label={twoFactorMsg.copyCodes} />
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            const url = URL.createObjectURL(new Blob([text + "\n"], { type: "text/plain" }));
            const link = document.createElement("a");
            link.href = url;
            link.download = twoFactorMsg.recoveryFileName;
            link.click();
            URL.revokeObjectURL(url);
          }}
        >
          <Download className="h-4 w-4" aria-hidden /> {twoFactorMsg.downloadCodes}
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {twoFactorMsg.done}
        </button>
      </div>
    </div>
  );
}

/** Turning one's own two-factor off: the password and a current code (or a recovery code). */
function TurnOff({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setBusy(true);
        setError(null);
        api("/auth/two-factor/disable", anyAnswer, {
          method: "POST",
          body: { password: formText(form, "password"), code: formText(form, "code") },
        })
          .then(onDone)
          .catch((err: unknown) => setError(errorMessage(err)))
          .finally(() => setBusy(false));
      }}
    >
      <h3 className="font-semibold">{twoFactorMsg.turnOff}</h3>
      <p className="text-sm">{twoFactorMsg.turnOffText}</p>
      <FormError message={error} />
      <PasswordField id="tf-off-password" />
      <CodeField id="tf-off-code" label={twoFactorMsg.turnOffCode} />
      <SubmitRow busy={busy} tone="btn-error">
        {twoFactorMsg.turnOffConfirm}
      </SubmitRow>
    </form>
  );
}

/**
 * The user menu's "Two-factor sign-in" dialog: the setup when it is off, the state and the way to
 * turn it off when it is on.
 */
export function TwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { operator, retry } = useAuth();
  const [settingUp, setSettingUp] = useState(false);
  const enabled = operator?.twoFactorEnabled === true;
  const close = () => {
    setSettingUp(false);
    onClose();
  };
  return (
    <Modal open={open} title={twoFactorMsg.title} onClose={close}>
      {enabled && !settingUp ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm" data-testid="two-factor-state">
            {twoFactorMsg.statusOn}
          </p>
          <TurnOff
            onDone={() => {
              notify(twoFactorMsg.disabled);
              retry();
              close();
            }}
          />
        </div>
      ) : settingUp ? (
        <TwoFactorSetupFlow
          onDone={() => {
            retry();
            close();
          }}
        />
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm" data-testid="two-factor-state">
            {twoFactorMsg.statusOff}
          </p>
          <div className="flex justify-end">
            <button type="button" className="btn btn-primary" onClick={() => setSettingUp(true)}>
              <ShieldCheck className="h-4 w-4" aria-hidden /> {twoFactorMsg.start}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}

/**
 * The only screen of an operator REQUIRE_MFA covers who has not set up two-factor yet: the setup,
 * and Sign out. Every other API route answers them 403 `mfa_setup_required` meanwhile.
 */
export function TwoFactorRequired() {
  const { operator, retry, signOut } = useAuth();
  useDocumentTitle(twoFactorMsg.requiredTitle);
  return (
    <OutsideFrame
      title={twoFactorMsg.requiredTitle}
      width="md"
      lines={
        <>
          <p className="mt-1 text-base-content/70">{twoFactorMsg.requiredText}</p>
          {operator ? <p className="mt-1 text-sm text-base-content/70">{operator.email}</p> : null}
        </>
      }
      after={
        <div className="mt-4 flex justify-center">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void signOut()}>
            <LogOut className="h-4 w-4" aria-hidden /> {appMsg.signOut}
          </button>
        </div>
      }
    >
      <div className="card-body">
        <TwoFactorSetupFlow onDone={retry} />
      </div>
    </OutsideFrame>
  );
}

/** The operator's password, asked before the setup starts and before two-factor is turned off. */
function PasswordField({ id }: { id: string }) {
  return (
    <Field label={twoFactorMsg.password} htmlFor={id} required>
      <input
        id={id}
        name="password"
        type="password"
        className="input w-full"
        autoComplete="current-password"
        required
        maxLength={200}
      />
    </Field>
  );
}
