/** What the feature modules build their texts with. */

/**
 * The texts every kind of record's screens use (its list, its page, its add and edit forms, Archive
 * and Activate), from its name in the singular and the plural ("Model", "Models"); the entity's
 * entry spreads them and adds or overrides its own.
 */
export function recordTexts(one: string, many: string) {
  const a = one.toLowerCase();
  const all = many.toLowerCase();
  return {
    title: many,
    loadError: `Error loading ${all}`,
    loadOneError: `Error loading ${a}`,
    loading: `Loading ${a}...`,
    notFound: `${one} not found`,
    notFoundText: `The ${a} you're looking for doesn't exist.`,
    backToList: `Back to ${many}`,
    backToRecord: `Back to ${one}`,
    add: `Add ${one}`,
    addTitle: `Add New ${one}`,
    editTitle: `Edit ${one}`,
    create: `Create ${one}`,
    creating: "Creating...",
    save: `Update ${one}`,
    saving: "Updating...",
    created: `${one} created`,
    updated: `${one} updated successfully!`,
    archived: `${one} archived successfully!`,
    restore: "Activate",
    restored: `${one} activated successfully!`,
    empty: `No ${all} found`,
    emptyFiltered: `No ${all} match the search or filters.`,
    allStatuses: "All Statuses",
    searchPlaceholder: `Search ${all}...`,
    nothingToUpdate: "Nothing to update",
    idLabel: `${one} ID`,
    information: `${one} Information`,
    listLabel: `${one} list`,
  };
}

/** A count as text ("40,500"), or an estimate already written as the screen shows it ("about 40.5K"). */
export const countText = (n: number | string) => (typeof n === "number" ? n.toLocaleString("en-US") : n);
