/** What other features may use of global search: the palette, loaded on first use. */
export const loadCommandPalette = () => import("./CommandPalette");
