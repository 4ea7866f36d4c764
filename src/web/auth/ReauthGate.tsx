import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { setReauthenticationHandler } from "../api/client";

const ReauthDialog = lazy(() => import("./ReauthDialog").then((m) => ({ default: m.ReauthDialog })));

/**
 * Asks the operator to confirm it is them whenever the API wants it (403
 * `reauthentication_required`: an admin action on operators' credentials, docs/identity.md): one
 * "Confirm it is you" dialog however many requests ask at once; each is sent again once confirmed,
 * and fails with the server's message when the operator cancels. `twoFactor`: the operator has an
 * authenticator app, so the dialog also offers a code. Mounted once, by the shell.
 */
export function ReauthGate({ twoFactor }: { twoFactor: boolean }) {
  const [answer, setAnswer] = useState<((confirmed: boolean) => void) | null>(null);
  const waiting = useRef<Promise<boolean> | null>(null);
  useEffect(() => {
    setReauthenticationHandler(
      () =>
        (waiting.current ??= new Promise<boolean>((resolve) =>
          setAnswer(() => (confirmed: boolean) => {
            waiting.current = null;
            setAnswer(null);
            resolve(confirmed);
          }),
        )),
    );
    return () => setReauthenticationHandler(undefined);
  }, []);
  if (!answer) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog twoFactor={twoFactor} onDone={answer} />
    </Suspense>
  );
}
