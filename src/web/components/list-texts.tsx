import { EmptyState } from "./inputs";

/**
 * A list screen's title (also the document title), subtitle and load error title ("Error loading
 * platforms"), from its section of the messages; spread into `ListScreen`.
 */
export function screenTexts(texts: { title: string; subtitle: string; loadError: string }) {
  return { title: texts.title, subtitle: texts.subtitle, errorTitle: texts.loadError };
}

/**
 * A list's empty state: `texts.empty` ("No platforms found"), and `texts.emptyFiltered` below it
 * when a search or a filter narrows the list (nothing matches, rather than nothing yet).
 */
export function ListEmpty({
  list,
  texts,
}: {
  list: { narrowed: boolean };
  texts: { empty: string; emptyFiltered: string };
}) {
  return <EmptyState title={texts.empty} text={list.narrowed ? texts.emptyFiltered : undefined} />;
}
