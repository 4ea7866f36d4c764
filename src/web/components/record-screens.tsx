import type { ReactNode } from "react";
import type { UseQueryOptions, QueryKey } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import type { DefaultValues, FieldValues } from "react-hook-form";
import { uiMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import type { MutationMeta } from "../lib/query-client";
import { useScreenList, type ListQuery } from "../lib/screen-list";
import type { Target } from "../lib/target";
import {
  archiveAction,
  editAction,
  historyAction,
  statusPair,
  type Action,
  type ArchiveTexts,
  type StatusMutation,
} from "./actions";
import { StatusBadge, type BadgeKind } from "./badges";
import type { BulkSpec } from "./bulk";
import { column } from "./columns";
import type { Column } from "./DataTable";
import { InfoSection, Section, type InfoItem } from "./detail";
import type { FieldSpec } from "./EntityForm";
import { addScreen, editScreen, sendValues, sendWithVersion, type FormTexts, type Screen } from "./FormScreen";
import { FilterGroup, StatusFilter } from "./list-filters";
import { statusSetCards } from "./list-cards";
import { ListEmpty, screenTexts } from "./list-texts";
import { ListScreen, type ServerListOf } from "./ListScreen";
import { RecordLink } from "./RecordLink";
import { recordKind, RecordPage, type RecordRemoval } from "./RecordPage";
import { DateText, Muted } from "./text";

/** What every record of a kind the kit serves has: its status and its dates. */
type Dated = { status: string; created_at: string; updated_at: string | null };

/** The texts the screens read from the entity's messages (`platformsMsg`: `recordTexts` and its own subtitles). */
export type RecordScreenTexts = FormTexts &
  ArchiveTexts & {
    title: string;
    subtitle: string;
    loadError: string;
    loadOneError: string;
    loading: string;
    notFound: string;
    notFoundText?: string;
    backToList: string;
    backToRecord: string;
    add: string;
    empty: string;
    emptyFiltered: string;
    allStatuses: string;
    searchPlaceholder: string;
    idLabel: string;
    information: string;
    listLabel: string;
  };

/** A save's mutation hook (`entityQueries`' `creates()` and `updates()`). */
type Save<I, C> = { mutateAsync: (input: I) => Promise<C> };

/** A list's summary with a count per status of `St` and the total. */
type Counts<St extends string> = Record<St | "total", number>;

/** What every screen reads: the kind of record, its texts and its places. */
type Common = {
  /** Its badge colours' kind and its audit entity ("platform"). */
  kind: BadgeKind;
  texts: RecordScreenTexts;
  /** The sidebar's label, the screens' family in document titles ("Platforms"). */
  section: string;
  /** The list's path, its API path (CSV export) and the add screen's. */
  paths: { list: Target; api: string; add: Target };
  /** What its saves change besides its own queries. */
  changes?: MutationMeta;
};

/** The list's own parts. */
type ListSpec<I extends object, S> = {
  icon: LucideIcon;
  /** The name column: its id (sort key) and header; `detail` a line under the name, `after` beside it. */
  name: { id: string; header: string; detail?: (row: I) => string | null; after?: (row: I) => ReactNode };
  columns: Column<I>[];
  sortable: readonly string[];
  /** URL filter names to API parameters, `status` always. */
  filters?: Record<string, string>;
  /** Filter controls after the status filter. */
  more?: (list: ServerListOf<I, S>) => ReactNode;
  bulk?: BulkSpec["actions"];
};

/** The form's own parts: its schema (the create request's), its fields, and how a record fills it. */
type FormSpec<T extends FieldValues, O, R> = {
  schema: Parameters<typeof addScreen<T, O, O, R>>[0]["schema"];
  fields: FieldSpec<T>[];
  /** The edit form's values of the record, when they are not its columns as they are. */
  values?: (record: NoInfer<R>) => DefaultValues<T>;
};

/** The page's own parts. */
type DetailSpec<R> = {
  /** The information rows of its page between its id and status and its dates. */
  info: (record: R) => InfoItem[];
  subtitle?: (record: R) => string | null;
  /** Beside the information: its related records, under their title. */
  related?: { title: (record: R) => string; content: (record: R) => ReactNode };
  /** Delete: its mutation hook (`useDelete(id)`) and the rest of `RecordPage`'s `remove`. */
  remove?: Omit<RecordRemoval<R, boolean>, "mutation"> & {
    useDelete: (id: string) => RecordRemoval<R, boolean>["mutation"];
  };
};

/** The PATCH hook of its page's Archive and Activate. */
type StatusUpdates<St extends string> = (
  meta?: MutationMeta,
) => (id: string) => StatusMutation<{ status: St }> & { error: Error | null };

/** The PATCH hook of its edit form: the changes with the version read. */
type FormUpdates<O> = (meta?: MutationMeta) => (id: string) => Save<Partial<O & { ifMatch?: string }>, unknown>;

/** What the list screen reads of a declaration. */
type ListParts<I extends object, S, St extends string> = Common & {
  ref: { key: (row: I) => string; name: (row: I) => string; link: (id: string) => Target };
  queries: { listQuery: ListQuery<I, S> };
  statuses: readonly St[];
  list: ListSpec<I, S>;
};

/** What the record's page reads of a declaration. */
type PageParts<R extends Dated, K extends QueryKey, St extends string> = Common & {
  ref: { key: (row: R) => string; name: (row: R) => string; edit: (id: string) => Target; useId: () => string };
  queries: { detailQuery: (id: string) => UseQueryOptions<R, Error, R, K>; updates: StatusUpdates<St> };
  archive: { live: St; archived: St };
  detail: DetailSpec<R>;
};

/** What the add and edit screens read of a declaration. */
type FormParts<W, R extends W & Dated, T extends FieldValues, O, K extends QueryKey> = Common & {
  ref: { key: (row: W) => string; name: (row: R) => string; link: (id: string) => Target; useId: () => string };
  queries: {
    detailQuery: (id: string) => UseQueryOptions<R, Error, R, K>;
    creates: (meta?: MutationMeta) => () => Save<O, W>;
    updates: FormUpdates<O>;
  };
  form: FormSpec<T, O, R>;
};

/** The four screens of a kind of record, each a component for its route. */
export type RecordScreenSet = { ListPage: Screen; DetailPage: Screen; AddPage: Screen; EditPage: Screen };

/**
 * The list, page, add and edit screens of one kind of record, declared once
 * (docs/adding-an-entity.md), each a component for the feature's routes (`recordPages` in its
 * `routes.ts`): the list with its status cards, search, status filter, sorts, CSV export and bulk
 * actions (SPEC.md §2's list screens); its page with History, Edit, Archive or its way back and
 * its information; the add and edit forms with the stale-save guard.
 *
 * The declaration says what tells its records apart and where they open, its texts, its queries
 * (`entityQueries`), its status set, and then only what is its own: the list's columns and
 * filters, the form's fields, the information rows of its page. `I` is a list row, `W` the record
 * as a save answers it, `R` the record its page and edit form load, `S` the list's summary, `T`
 * the form's values, `O` what the form's schema makes of them (the create request), `K` the
 * record's query key, `St` its statuses.
 */
export function recordScreens<
  I extends object,
  W extends Dated,
  R extends W,
  S extends Counts<St>,
  T extends FieldValues,
  O,
  K extends QueryKey,
  St extends string,
>(
  d: Common & {
    /** One record: its id and name (a fallback for an empty one), its page and its edit screen. */
    ref: {
      key: (row: NoInfer<I | W>) => string;
      name: (row: NoInfer<I | W>) => string;
      link: (id: string) => Target;
      edit: (id: string) => Target;
      /** The record's id on its page and its edit screen (`useParams({ strict: false })`). */
      useId: () => string;
    };
    /** Its queries (`entityQueries`). */
    queries: {
      listQuery: ListQuery<I, S>;
      detailQuery: (id: string) => UseQueryOptions<R, Error, R, K>;
      creates: (meta?: MutationMeta) => () => Save<O, W>;
      updates: StatusUpdates<St> & FormUpdates<O>;
    };
    /** The status set (cards and filter) and the two an archive moves between. */
    statuses: readonly St[];
    archive: { live: St; archived: St };
    list: ListSpec<I, S>;
    form: FormSpec<T, O, R>;
    detail: DetailSpec<R>;
  },
): RecordScreenSet {
  return { ListPage: listPage(d), DetailPage: detailPage(d), ...formPages(d) };
}

/** The list screen of `recordScreens`. */
function listPage<I extends object, S extends Counts<St>, St extends string>(d: ListParts<I, S, St>): Screen {
  const { texts, ref, list: spec } = d;
  const name = column<I>(
    spec.name.id,
    spec.name.header,
    (row) => (
      <div className="flex min-w-0 items-start gap-2">
        <RecordLink {...ref.link(ref.key(row))} text={ref.name(row)} detail={spec.name.detail?.(row)} />
        {spec.name.after?.(row)}
      </div>
    ),
    { grow: true, primary: true },
  );
  const columns = [name, ...spec.columns];
  return function ListPage() {
    const list = useScreenList(d.queries.listQuery, { status: "status", ...spec.filters });
    return (
      <ListScreen
        list={list}
        {...screenTexts(texts)}
        add={{ label: texts.add, link: d.paths.add }}
        cards={statusSetCards(spec.icon, d.statuses)}
        section={{ label: texts.listLabel }}
        search={texts.searchPlaceholder}
        aboveTable={
          <FilterGroup>
            <StatusFilter list={list} all={texts.allStatuses} options={d.statuses} />
            {spec.more?.(list)}
          </FilterGroup>
        }
        exportPath={d.paths.api}
        bulk={spec.bulk ? { entity: d.paths.api.slice(1), actions: spec.bulk } : undefined}
        record={{ key: ref.key, label: ref.name, link: (row) => ref.link(ref.key(row)) }}
        table={{
          label: texts.title,
          columns,
          sortable: spec.sortable,
          empty: <ListEmpty list={list} texts={texts} />,
        }}
      />
    );
  };
}

/** The record's page of `recordScreens`: its header's actions and its information. */
function detailPage<R extends Dated, K extends QueryKey, St extends string>(d: PageParts<R, K, St>): Screen {
  const { texts, ref } = d;
  const kind = recordKind(d.section, texts, d.paths.list);
  const send = statusPair(d.archive.live, d.archive.archived);
  const info = (r: R): InfoItem[] => [
    { label: texts.idLabel, value: ref.key(r), mono: true },
    { label: uiMsg.status, value: <StatusBadge kind={d.kind} status={r.status} /> },
    ...d.detail.info(r),
    { label: uiMsg.created, value: <DateText iso={r.created_at} withTime /> },
    {
      label: uiMsg.lastUpdated,
      value: r.updated_at ? <DateText iso={r.updated_at} withTime /> : <Muted>{promptsMsg.never}</Muted>,
    },
  ];
  const { remove } = d.detail;
  const useUpdate = d.queries.updates(d.changes);
  const useRemoval = (id: string) => (remove ? { ...remove, mutation: remove.useDelete(id) } : undefined);
  return function DetailPage() {
    const id = ref.useId();
    const removal = useRemoval(id);
    const update = useUpdate(id);
    const actions = (r: R): Action[] => [
      historyAction(d.kind, id),
      editAction(ref.edit(id), { main: true }),
      archiveAction(r.status === d.archive.archived, update, texts, send),
    ];
    return (
      <RecordPage
        query={d.queries.detailQuery(id)}
        kind={kind}
        loadingLabel={texts.loading}
        remove={removal}
        header={(r) => ({
          title: ref.name(r),
          badge: <StatusBadge kind={d.kind} status={r.status} />,
          subtitle: d.detail.subtitle?.(r),
          actions: actions(r),
          error: update.error,
        })}
      >
        {(r) =>
          d.detail.related ? (
            <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
              <InfoSection title={texts.information} className="xl:col-span-1" narrow items={info(r)} />
              <Section title={d.detail.related.title(r)} className="xl:col-span-2">
                {d.detail.related.content(r)}
              </Section>
            </div>
          ) : (
            <InfoSection title={texts.information} items={info(r)} />
          )
        }
      </RecordPage>
    );
  };
}

/** The add and edit screens of `recordScreens`. */
function formPages<W, R extends W & Dated, T extends FieldValues, O, K extends QueryKey>(
  d: FormParts<W, R, T, O, K>,
): { AddPage: Screen; EditPage: Screen } {
  const { texts, ref } = d;
  const form = { kind: recordKind(d.section, texts, d.paths.list), texts, ...d.form };
  return {
    AddPage: addScreen({
      ...form,
      useCreate: d.queries.creates(d.changes),
      send: sendValues,
      created: (r) => ({ to: ref.link(ref.key(r)) }),
    }),
    EditPage: editScreen({
      ...form,
      useId: ref.useId,
      query: d.queries.detailQuery,
      name: ref.name,
      useUpdate: d.queries.updates(d.changes),
      send: sendWithVersion,
      back: (id) => ({ ...ref.link(id), label: texts.backToRecord }),
    }),
  };
}
