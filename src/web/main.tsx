import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { AuthProvider } from "./auth/AuthProvider";
import { applyTheme, storedTheme } from "./lib/theme";
import { createQueryClient } from "./lib/query-client";
import { router } from "./router";
import "./styles.css";

// Before the first paint, so a chosen theme does not flash the other one.
applyTheme(storedTheme());
const queryClient = createQueryClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
