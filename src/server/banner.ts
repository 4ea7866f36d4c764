import type { Config } from "./config";

/**
 * The lines `npm start` prints once the console listens (on stderr, so that stdout carries only
 * the JSON log a collector reads): its address, its database, how to sign in (the demo operators,
 * or, when the database has no operator yet, how to create one), and the rules in force that
 * change what staff see (prompt review, two-factor required), so a console started with them says so.
 */
export function startBanner({
  config,
  address,
  database,
  operators,
  trial,
  operatorsExist = false,
}: {
  config: Pick<Config, "publicUrl" | "promptReview" | "identity">;
  address: string;
  database: string;
  operators: ReadonlyArray<{ role: string; email: string; password: string }>;
  trial: boolean;
  /** The database already has an operator (no "Create an operator" line then). */
  operatorsExist?: boolean;
}): string[] {
  const { promptReview, identity } = config;
  return [
    "",
    `  Pedal Console is running at ${config.publicUrl}  (listening on ${address})`,
    `  Database: ${database}`,
    ...(promptReview !== "off" ? [`  Prompt review: on (PROMPT_REVIEW=${promptReview})`] : []),
    ...(identity.requireMfa !== "none" ? [`  Two-factor required: ${identity.requireMfa} (REQUIRE_MFA)`] : []),
    ...(operators.length
      ? ["  Sign in with:", ...operators.map((o) => `    ${o.role.padEnd(7)} ${o.email}  password: ${o.password}`)]
      : trial || operatorsExist
        ? []
        : ["  Create an operator with: npm run operator:create -- --email you@example.com --password '...'"]),
    "",
  ];
}
