/**
 * SCIM 2.0 directory sync (RFC 7643 resources, RFC 7644 protocol; docs/onboarding.md) at
 * `{PUBLIC_URL}/scim/v2`: a customer's identity provider (Okta, Microsoft Entra ID, …) creates,
 * updates and deactivates the customer's users (`/Users`) and teams (`/Groups`) with a directory
 * token (`Authorization: Bearer scim_…`, directory/tokens.ts) bound to that customer. A token
 * reaches its customer's records only: another customer's are 404 as if they did not exist.
 *
 * - Users map to users_data: `userName` (and the primary e-mail) is the e-mail, lower-cased;
 *   `name.givenName`/`familyName` the first and last name; `title` the job title; `active` the
 *   status (active/inactive); `externalId` is kept in directory_users. Every rule of the console's
 *   Add user holds (db/user-writes.ts): valid domains, an e-mail unique across customers, an
 *   active customer. DELETE deactivates the user and removes their memberships (each restorable
 *   from Recently deleted), as a leaver's offboarding; the user stays, inactive.
 * - Groups map to the customer's teams; members to teams_users. DELETE archives the team
 *   (status inactive) and leaves its members.
 * - Refusals are SCIM's error body (`urn:ietf:params:scim:api:messages:2.0:Error`, `status`,
 *   `scimType`, `detail`) as `application/scim+json`.
 * - Every change is audited as the directory (operator `directory:<token_id>`), and every request
 *   is logged in directory_requests for the customer page's state. The request rate is bounded per
 *   customer (429 with Retry-After).
 * - The clients' known deviations are accepted: Entra's PascalCase ops ("Replace"), booleans as
 *   strings ("False"), PATCH without a path carrying dotted keys ("name.givenName"), and
 *   `?aadOptscim062020` on any URL.
 */
import { directoryMsg } from "../../domain/directory-messages";
import type { MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { directory_requests } from "../db/schema";
import { databaseErrorAnswer, HttpError } from "../http/errors";
import { resolveDirectoryToken } from "./tokens";
import { mountUsers } from "./scim-users";
import { mountGroups } from "./scim-groups";
import {
  errorBody,
  groupSchema,
  baseOf,
  listResponse,
  maxPage,
  type ScimContext,
  type ScimEnv,
  ScimError,
  scimJson,
  toScimError,
  userSchema,
} from "./scim-protocol";

/**
 * The SCIM router, mounted at /scim/v2: the directory token, the per-customer rate, the request
 * log, and SCIM's error body for every refusal. `ratePerMinute` bounds each customer's requests.
 */
export function scimRouter(options: { ratePerMinute: number }) {
  const app = new Hono<ScimEnv>();

  const authenticate: MiddlewareHandler<ScimEnv> = async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    const refuse = (detail: string) => {
      c.header("www-authenticate", 'Bearer realm="scim"');
      return scimJson(c, errorBody(401, detail), 401);
    };
    if (!match) return refuse(directoryMsg.unauthorized);
    const directory = await resolveDirectoryToken(c.get("db"), match[1], c.get("clock")());
    if (!directory) return refuse(directoryMsg.invalidToken);
    c.set("directory", directory);
    const admission = await c
      .get("tokenRate")
      .admit(directory.customerId, options.ratePerMinute, c.get("clock")(), "directory");
    if (!admission.admitted) {
      c.header("retry-after", String(admission.retryAfterSeconds));
      return scimJson(c, errorBody(429, directoryMsg.rateLimited(admission.retryAfterSeconds)), 429);
    }
    await next();
  };

  // Refusals in SCIM's shape: its own, the console's shared rules', the database's (503 when it
  // is unreachable, recovering by itself); anything else is logged and answered 500.
  app.onError((err, c) => {
    let e = err instanceof ScimError ? err : err instanceof HttpError ? toScimError(err) : null;
    if (!e) {
      const refused = databaseErrorAnswer(err);
      if (refused?.status === 503) c.header("retry-after", "1");
      if (refused) e = refused.status >= 500 ? new ScimError(refused.status, refused.message) : toScimError(refused);
    }
    if (!e) {
      c.get("logger").error({ requestId: c.get("requestId"), err }, "unhandled error");
      e = new ScimError(500, `Something went wrong on our side (request ${c.get("requestId")})`);
    }
    c.set("scimError", e.message);
    return scimJson(c as ScimContext, errorBody(e.status, e.message, e.scimType), e.status);
  });
  // Every authenticated request logged for the customer page's directory state.
  app.use("*", async (c, next) => {
    await next();
    const directory = c.get("directory");
    if (!directory) return;
    const failed = c.res.status >= 400;
    await c
      .get("db")
      .insert(directory_requests)
      .values({
        customer_id: directory.customerId,
        directory_token_id: directory.directoryTokenId,
        method: c.req.method,
        path: c.req.path.slice(0, 500),
        status: c.res.status,
        outcome: failed ? null : (c.get("outcome") ?? null),
        error: failed ? (c.get("scimError") ?? null) : null,
      })
      .catch((err: unknown) => c.get("logger").warn({ err }, "directory request not logged"));
  });
  app.use("*", authenticate);

  // Discovery (RFC 7644 §4).
  app.get("/ServiceProviderConfig", (c) =>
    scimJson(c, {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      documentationUri: `${c.get("publicUrl")}/docs/onboarding.md`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: maxPage },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "Directory token",
          description: "Authorization: Bearer scim_…",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${baseOf(c)}/ServiceProviderConfig` },
    }),
  );
  app.get("/ResourceTypes", (c) =>
    scimJson(
      c,
      listResponse([
        {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
          id: "User",
          name: "User",
          endpoint: "/Users",
          schema: userSchema,
          meta: { resourceType: "ResourceType", location: `${baseOf(c)}/ResourceTypes/User` },
        },
        {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
          id: "Group",
          name: "Group",
          endpoint: "/Groups",
          schema: groupSchema,
          meta: { resourceType: "ResourceType", location: `${baseOf(c)}/ResourceTypes/Group` },
        },
      ]),
    ),
  );
  app.get("/Schemas", (c) => {
    const attribute = (name: string, type = "string", extra: Record<string, unknown> = {}) => ({
      name,
      type,
      multiValued: false,
      required: false,
      caseExact: false,
      mutability: "readWrite",
      returned: "default",
      uniqueness: "none",
      ...extra,
    });
    const schemas = [
      {
        id: userSchema,
        name: "User",
        attributes: [
          attribute("userName", "string", { required: true, uniqueness: "server" }),
          attribute("name", "complex", {
            subAttributes: [
              attribute("givenName"),
              attribute("familyName"),
              attribute("formatted", "string", { mutability: "readOnly" }),
            ],
          }),
          attribute("title"),
          attribute("active", "boolean"),
          attribute("externalId", "string", { caseExact: true }),
          attribute("emails", "complex", {
            multiValued: true,
            subAttributes: [attribute("value"), attribute("type"), attribute("primary", "boolean")],
          }),
          attribute("groups", "complex", { multiValued: true, mutability: "readOnly" }),
        ],
      },
      {
        id: groupSchema,
        name: "Group",
        attributes: [
          attribute("displayName", "string", { required: true }),
          attribute("externalId", "string", { caseExact: true }),
          attribute("members", "complex", {
            multiValued: true,
            subAttributes: [attribute("value"), attribute("display", "string", { mutability: "readOnly" })],
          }),
        ],
      },
    ].map((s) => ({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      ...s,
      meta: { resourceType: "Schema", location: `${baseOf(c)}/Schemas/${s.id}` },
    }));
    return scimJson(c, listResponse(schemas));
  });

  mountUsers(app);
  mountGroups(app);

  app.all("*", (c) => scimJson(c, errorBody(404, directoryMsg.notImplemented), 404));
  return app;
}
