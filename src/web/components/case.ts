/** "active" → "Active". Kept apart from format.ts so the app shell does not load date-fns before a screen needs it. */
export const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
