import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { api, setUnauthorizedHandler } from "../api/client";
import { authClient } from "./auth-client";

export type Operator = { id: string; email: string; name: string; role: string };

type AuthValue = {
  operator: Operator | null;
  /** True while the session is being resolved (the gate shows "Loading..."). */
  isPending: boolean;
  /**
   * The session could not be read (network down, or the server answered 503 because its database
   * is unreachable). Not the same as signed out: the cookie is kept and `retry` reads it again.
   */
  unreachable: boolean;
  retry(): void;
  /** Signs in; resolves to the server's message on failure, null on success. */
  signIn(email: string, password: string): Promise<string | null>;
  signOut(): Promise<void>;
  /** Ends every session of the operator, this one included. */
  signOutEverywhere(): Promise<void>;
};

const AuthContext = createContext<AuthValue | null>(null);

/** Holds the operator session for the whole app (SPEC.md §7 "Auth"). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, isPending, error, refetch } = authClient.useSession();
  const queryClient = useQueryClient();

  useEffect(() => {
    setUnauthorizedHandler(() => void refetch());
  }, [refetch]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { error } = await authClient.signIn.email({ email, password });
      if (error) return error.message ?? error.statusText ?? "Sign-in failed";
      queryClient.clear();
      await refetch();
      return null;
    },
    [queryClient, refetch],
  );

  const signOut = useCallback(async () => {
    await authClient.signOut();
    queryClient.clear();
    await refetch();
  }, [queryClient, refetch]);

  const signOutEverywhere = useCallback(async () => {
    // The answer's schema is loaded here, not with the app: zod stays out of the initial JavaScript.
    await import("../../domain/operators")
      .then(({ revokedSchema }) => api("/account/revoke-sessions", revokedSchema, { method: "POST" }))
      .catch(() => undefined);
    queryClient.clear();
    await refetch();
  }, [queryClient, refetch]);

  const value = useMemo<AuthValue>(() => {
    const user = data?.user as (Operator & Record<string, unknown>) | undefined;
    return {
      operator: user ? { id: user.id, email: user.email, name: user.name, role: String(user.role ?? "viewer") } : null,
      isPending,
      unreachable: !user && error !== null && error !== undefined && error.status !== 401,
      retry: () => void refetch(),
      signIn,
      signOut,
      signOutEverywhere,
    };
  }, [data, isPending, error, refetch, signIn, signOut, signOutEverywhere]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The signed-in operator and the sign-in/out actions. */
export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(msg.app.hookMisuse);
  return value;
}
