import { useSyncExternalStore } from "react";

/** The operator's theme choice: follow the system setting (the default), or always light or dark. */
export type ThemeChoice = "system" | "light" | "dark";
export const themeChoices: readonly ThemeChoice[] = ["system", "light", "dark"];

const storageKey = "pedal.theme";
const listeners = new Set<() => void>();

/** The remembered choice ("system" when none, or when storage is unavailable). */
export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(storageKey);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/**
 * Applies a choice to the page: daisyUI's light and dark themes by `data-theme`; without it the
 * stylesheet follows `prefers-color-scheme`.
 */
export function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
}

/** Remembers and applies a choice. */
export function setTheme(choice: ThemeChoice) {
  try {
    if (choice === "system") localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, choice);
  } catch {
    // Private windows may refuse storage: the choice then lasts for this page only.
  }
  applyTheme(choice);
  listeners.forEach((l) => l());
}

/** The current choice, re-rendering when it changes. */
export function useTheme(): ThemeChoice {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, storedTheme);
}
