import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { customerSortKeys, customerStatuses, teamSortKeys, teamStatuses, userSortKeys } from "../../src/domain/enums";
import { viewLimits } from "../../src/domain/limits";
import { auditSearch } from "../../src/web/audit/routes";
import { customersSearch } from "../../src/web/customers/routes";
import { teamsSearch } from "../../src/web/teams/routes";
import { usersSearch } from "../../src/web/users/routes";
import { propertyRuns } from "../support/properties";

/**
 * The route table validates the URL's search parameters by hand (src/web/lib/url-search.ts, to keep
 * zod out of the initial JavaScript). These are the zod schemas it replaced; for every route, any
 * search the router can hand over (values as its JSON-aware parser yields them: text, numbers,
 * booleans, null, arrays, objects) must validate to the same result, each bad value dropped.
 */
const drop = <T,>(schema: z.ZodType<T>) => schema.optional().catch(undefined);
/** Every list's saved view and page size (docs/saved-views.md). */
const viewZod = {
  view: drop(z.guid()),
  limit: drop(
    z.coerce
      .number()
      .int()
      .refine((n) => (viewLimits.pageSizes as readonly number[]).includes(n)),
  ),
};
const listZod = (sortKeys: readonly [string, ...string[]], extra: z.ZodRawShape) =>
  z.object({
    q: drop(z.string().max(200)),
    sort: drop(z.enum(sortKeys)),
    order: drop(z.enum(["asc", "desc"])),
    page: drop(z.coerce.number().int().min(1)),
    cursor: drop(z.string().max(2000)),
    ...viewZod,
    ...extra,
  });
const twins: Array<[string, (search: Record<string, unknown>) => unknown, z.ZodType, readonly string[]]> = [
  [
    "/customers",
    customersSearch,
    listZod(customerSortKeys, { status: drop(z.enum(customerStatuses)) }),
    [...customerSortKeys, ...customerStatuses],
  ],
  [
    "/teams",
    teamsSearch,
    listZod(teamSortKeys, {
      customer: drop(z.guid()),
      status: drop(z.enum(teamStatuses)),
      skills: drop(z.literal("none")),
    }),
    [...teamSortKeys, ...teamStatuses, "none"],
  ],
  [
    "/users",
    usersSearch,
    listZod(userSortKeys, { customer: drop(z.guid()), signed_in: drop(z.boolean()) }),
    userSortKeys,
  ],
  [
    "/audit",
    auditSearch,
    z.object({
      operator: drop(z.string().max(100)),
      entity: drop(z.string().max(50)),
      entity_id: drop(z.string().max(100)),
      action: drop(z.string().max(50)),
      from: drop(z.iso.date()),
      to: drop(z.iso.date()),
      page: drop(z.coerce.number().int().min(1)),
      cursor: drop(z.string().max(2000)),
      ...viewZod,
    }),
    [],
  ],
];

/** zod keeps a dropped key with the value undefined; the router leaves undefined out of the URL either way. */
const defined = (o: unknown) =>
  Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([, v]) => v !== undefined));

const keys = [
  "q",
  "sort",
  "order",
  "page",
  "cursor",
  "customer",
  "signed_in",
  "status",
  "skills",
  "view",
  "limit",
  "operator",
  "entity",
  "entity_id",
  "action",
  "from",
  "to",
  "other",
];
const value = (words: readonly string[]) =>
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ minLength: 195, maxLength: 2010 }),
    fc.constantFrom(
      ...words,
      "asc",
      "desc",
      "ASC",
      "",
      "true",
      "1",
      "0",
      "-3",
      "2.5",
      "1e3",
      "25",
      "100",
      " 7",
      "0x10",
      "Infinity",
      "9007199254740993",
      "123e4567-e89b-12d3-a456-426614174000",
      "123E4567-E89B-12D3-A456-426614174000",
      "123e4567-e89b-02d3-a456-426614174000",
      "00000000-0000-0000-0000-000000000000",
      "2024-02-29",
      "2023-02-29",
      "2026-13-01",
      "2026-11-31",
      "2026-11-22T10:00",
    ),
    fc.integer({ min: -5, max: 10_000 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 3 })), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );

describe("URL search validation of the route table", () => {
  it.each(twins)("%s validates any search as its zod schema did", (_route, parse, schema, words) => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), value(words), { maxKeys: 8 }), (search) => {
        expect(parse(search)).toEqual(defined(schema.parse(search)));
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it("keeps valid values, typed as the router parses them, and drops bad ones and unknown keys", () => {
    expect(
      usersSearch({
        q: "acme",
        sort: "email",
        order: "desc",
        page: 3,
        customer: "123e4567-e89b-12d3-a456-426614174000",
        signed_in: true,
        extra: 1,
      }),
    ).toEqual({
      q: "acme",
      sort: "email",
      order: "desc",
      page: 3,
      customer: "123e4567-e89b-12d3-a456-426614174000",
      signed_in: true,
    });
    expect(usersSearch({ q: 123, sort: "password", order: "up", page: 0, customer: "acme", signed_in: "yes" })).toEqual(
      {},
    );
    expect(auditSearch({ from: "2026-11-01", to: "2026-02-30", page: "2" })).toEqual({ from: "2026-11-01", page: 2 });
  });
});
