/**
 * The identity settings (docs/identity.md, README "Configuration"): single sign-on needs its
 * client, SSO_ONLY needs single sign-on, the role map and the lists are read as documented, and
 * with none of them set nothing changes.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, defaultIdentity, loadConfig } from "../../src/server/config";
import { testFolder } from "../support/server";

const base = () => ({ DATA_DIR: testFolder("identity-config") });
const sso = { SSO_ISSUER: "https://id.example.com/", SSO_CLIENT_ID: "console", SSO_CLIENT_SECRET: "s3cret" };

describe("identity settings", () => {
  it("leaves single sign-on off and two-factor optional when nothing is set", () => {
    expect(loadConfig(base()).identity).toEqual(defaultIdentity);
  });

  it("reads single sign-on with its domains, role map, break-glass accounts and flags", () => {
    const identity = loadConfig({
      ...base(),
      ...sso,
      SSO_BUTTON_LABEL: "Sign in with Okta",
      SSO_ALLOWED_DOMAINS: " Example.com, example.org ",
      SSO_ROLE_CLAIM: "groups",
      SSO_ROLE_MAP: "console-admins=admin, console-staff=editor",
      SSO_CREATE_OPERATORS: "true",
      SSO_ONLY: "1",
      SSO_BREAK_GLASS: "Root@Example.com",
      REQUIRE_MFA: "admin",
      API_TOKEN_RATE_LIMIT: "120",
    }).identity;
    expect(identity).toEqual({
      requireMfa: "admin",
      apiTokenRatePerMinute: 120,
      sso: {
        issuer: "https://id.example.com",
        clientId: "console",
        clientSecret: "s3cret",
        buttonLabel: "Sign in with Okta",
        allowedDomains: ["example.com", "example.org"],
        roleClaim: "groups",
        roleMap: new Map([
          ["console-admins", "admin"],
          ["console-staff", "editor"],
        ]),
        defaultRole: "viewer",
        createOperators: true,
        only: true,
        breakGlass: ["root@example.com"],
      },
    });
  });

  it("refuses settings that cannot work, saying what to change", () => {
    expect(() => loadConfig({ ...base(), SSO_ONLY: "true" })).toThrow(/SSO_ONLY needs single sign-on/);
    expect(() => loadConfig({ ...base(), SSO_ISSUER: "https://id.example.com" })).toThrow(/SSO_CLIENT_ID/);
    expect(() => loadConfig({ ...base(), ...sso, SSO_ROLE_MAP: "admins=root" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), ...sso, SSO_ISSUER: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), REQUIRE_MFA: "some" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), API_TOKEN_RATE_LIMIT: "0" })).toThrow(ConfigError);
  });
});
