import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { appMsg, shellMsg } from "../../domain/messages/common";
import { api, setUnauthorizedHandler } from "../api/client";
import {
  refetchOnSignOutElsewhere,
  refetchSession,
  resetForNewSession,
  sessionQuery,
  type SessionError,
} from "./auth-client";

export type Operator = {
  id: string;
  email: string;
  name: string;
  role: string;
  /** An authenticator app is set up. */
  twoFactorEnabled: boolean;
  /** REQUIRE_MFA covers this operator and two-factor is not set up: only the setup screen is shown. */
  mfaSetupRequired: boolean;
};

/** Which second factor the sign-in's code step sends. */
export type SecondFactor = "authenticator" | "recovery";

type AuthValue = {
  operator: Operator | null;
  /** True while the session is being resolved (the gate shows "Loading..."). */
  isPending: boolean;
  /**
   * The session could not be read (network down, or the server answered 503 because its database
   * is unreachable). Not the same as signed out: the cookie is kept and `retry` reads it again.
   */
  unreachable: boolean;
  retry: () => void;
  /**
   * Signs in; resolves to the server's message on failure, null on success. When the operator has
   * two-factor sign-in, a right password resolves to null with `twoFactorPending` set: the code
   * step (`verifySecondFactor`) follows.
   */
  signIn: (email: string, password: string) => Promise<string | null>;
  /** The password was right and the sign-in waits for a code (TwoFactorStep). */
  twoFactorPending: boolean;
  /**
   * The sign-in's second step: a six-digit code or a recovery code. Resolves to the server's
   * message on failure, null once signed in. A challenge that has expired ends the step.
   */
  verifySecondFactor: (code: string, factor: SecondFactor) => Promise<string | null>;
  /** Leaves the code step for the password form. */
  cancelSecondFactor: () => void;
  signOut: () => Promise<void>;
  /** Ends every session of the operator, this one included. */
  signOutEverywhere: () => Promise<void>;
};

const AuthContext = createContext<AuthValue | null>(null);

/** Holds the operator session for the whole app (SPEC.md §7 "Auth"). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, isPending, error } = useQuery(sessionQuery);
  const queryClient = useQueryClient();

  useEffect(() => {
    setUnauthorizedHandler(() => void refetchSession(queryClient));
    return refetchOnSignOutElsewhere(queryClient);
  }, [queryClient]);

  // Signed out: the login screen shows, and its sign-in needs better-auth's client; fetched now,
  // the first sign-in does not wait for it.
  const signedOut = !isPending && !data;
  useEffect(() => {
    if (signedOut) void import("./better-auth-client").catch(() => undefined);
  }, [signedOut]);

  const [twoFactorPending, setTwoFactorPending] = useState(false);

  const signIn = useCallback(
    async (email: string, password: string) => {
      // better-auth's client comes with the first sign-in, not with the app (./better-auth-client).
      const loaded = await import("./better-auth-client").catch(() => null);
      if (!loaded) return shellMsg.lists.cannotReach;
      const { data, error } = await loaded.authClient.signIn.email({ email, password });
      if (error) return error.message ?? error.statusText ?? "Sign-in failed";
      if ((data as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect) {
        setTwoFactorPending(true);
        return null;
      }
      await resetForNewSession(queryClient);
      return null;
    },
    [queryClient],
  );

  const verifySecondFactor = useCallback(
    async (code: string, factor: SecondFactor) => {
      const path = factor === "authenticator" ? "verify-totp" : "verify-backup-code";
      const answer = await postSecondFactor(`/api/auth/two-factor/${path}`, { code });
      if (answer.ok) {
        setTwoFactorPending(false);
        await resetForNewSession(queryClient);
        return null;
      }
      // No live challenge (it expired, or too many codes were tried): back to the password.
      if (answer.status === 401 && answer.code === "unauthorized") setTwoFactorPending(false);
      return answer.message;
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    // Its code unreachable, the sign-out is not sent: the session stays, as when the server is down.
    const loaded = await import("./better-auth-client").catch(() => null);
    if (loaded) {
      const { error } = await loaded.authClient.signOut();
      // The other tabs ask for their session again, and find it ended.
      if (!error) loaded.broadcastSignOut();
    }
    await resetForNewSession(queryClient);
  }, [queryClient]);

  const signOutEverywhere = useCallback(async () => {
    // The answer's schema is loaded here, not with the app: zod stays out of the initial JavaScript.
    await import("../../domain/operators")
      .then(({ revokedSchema }) => api("/account/revoke-sessions", revokedSchema, { method: "POST" }))
      .catch(() => undefined);
    await resetForNewSession(queryClient);
  }, [queryClient]);

  const value = useMemo<AuthValue>(() => {
    const user = data?.user as (Operator & Record<string, unknown>) | undefined;
    const twoFactor = (data as { twoFactor?: { setupRequired?: boolean } } | null | undefined)?.twoFactor;
    return {
      operator: user
        ? {
            id: user.id,
            email: user.email,
            name: user.name,
            role: String(user.role ?? "viewer"),
            twoFactorEnabled: user.twoFactorEnabled === true,
            mfaSetupRequired: twoFactor?.setupRequired === true,
          }
        : null,
      isPending,
      unreachable: !user && error !== null && (error as SessionError).status !== 401,
      retry: () => void refetchSession(queryClient),
      signIn,
      twoFactorPending,
      verifySecondFactor,
      cancelSecondFactor: () => setTwoFactorPending(false),
      signOut,
      signOutEverywhere,
    };
  }, [data, isPending, error, queryClient, signIn, twoFactorPending, verifySecondFactor, signOut, signOutEverywhere]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * POSTs a code of the sign-in's second step. Plain fetch, not the API client: the login screen
 * loads no zod, and a 401 here is a wrong code, not an ended session.
 */
async function postSecondFactor(
  path: string,
  body: unknown,
): Promise<{ ok: true } | { ok: false; status: number; code: string; message: string }> {
  try {
    const res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    if (res.ok) return { ok: true };
    const error = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)
      ?.error;
    return {
      ok: false,
      status: res.status,
      code: error?.code ?? `http_${res.status}`,
      message: error?.message ?? `Request failed (${res.status})`,
    };
  } catch {
    return { ok: false, status: 0, code: "network", message: shellMsg.lists.cannotReach };
  }
}

/** The signed-in operator and the sign-in/out actions. */
export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(appMsg.hookMisuse);
  return value;
}
