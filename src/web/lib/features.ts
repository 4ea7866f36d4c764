import type { Feature, NavEntry, Palette } from "./routes";

/**
 * Every feature's declaration (`export const feature` of `src/web/<feature>/routes.ts`), found by
 * the build: a new feature folder with a `routes.ts` is routed, in the sidebar, cached and coloured
 * the day it exists, and no shared file lists it.
 */
const modules = import.meta.glob<Feature>("../*/routes.ts", { eager: true, import: "feature" });
export const features: Feature[] = Object.values(modules);

/** The sidebar entries of one section, in their declared order. */
export const navEntries = (section?: NavEntry["section"]): NavEntry[] =>
  features.flatMap((f) => (f.nav && f.nav.section === section ? [f.nav] : [])).sort((a, b) => a.order - b.order);

/** Every kind of record's badge colours. */
export const palettes: Record<string, Palette> = Object.fromEntries(
  features.flatMap((f) => Object.entries(f.badges ?? {})),
);

/** Every feature's query root: its folder's name ("../platforms/routes.ts": "platforms"). */
export const featureQueryRoots: string[] = Object.keys(modules).map((path) => path.split("/")[1]);
