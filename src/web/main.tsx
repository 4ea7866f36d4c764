import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { AuthProvider } from "./auth/AuthProvider";
import { prefetchSession } from "./auth/auth-client";
import { applyTheme, storedTheme } from "./lib/theme";
import { createQueryClient } from "./lib/query-client";
import { router } from "./router";
import "./styles.css";

const queryClient = createQueryClient();
// The session is asked for now, before React first renders the sign-in gate (auth/auth-client.ts).
prefetchSession(queryClient);
// Before the first paint, so a chosen theme does not flash the other one.
applyTheme(storedTheme());

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
