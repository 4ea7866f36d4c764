/**
 * `npm run operator:create -- --email E --password P [--role admin|editor|viewer] [--name N]`
 * adds an operator who can sign in, in the configured database, with a `create` audit row. Role
 * defaults to admin; the password follows the console's policy (src/domain/password.ts).
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { emailAddress } from "../src/domain/text";
import { createOperator, OperatorExistsError } from "../src/server/auth";
import { withDatabase } from "../src/server/database";
import { operatorRoles } from "../src/domain/enums";
import { passwordSchema } from "../src/domain/password";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    role: { type: "string", default: "admin" },
    name: { type: "string" },
  },
});
const input = z
  .object({
    email: emailAddress({ required: "--email is required", invalid: "--email must be an email address" }),
    password: passwordSchema,
    role: z.enum(operatorRoles),
    name: z.string().optional(),
  })
  .safeParse(values);
if (!input.success) {
  console.error(input.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("\n"));
  console.error(
    "usage: npm run operator:create -- --email you@example.com --password '...' [--role admin|editor|viewer]",
  );
  process.exit(2);
}
const code = await withDatabase(async (handle) => {
  try {
    await createOperator(handle.db, input.data, { requestId: "cli:operator:create" });
    console.log(`Operator ${input.data.email} (${input.data.role}) created.`);
    return 0;
  } catch (err) {
    if (!(err instanceof OperatorExistsError)) throw err;
    console.error(err.message);
    return 1;
  }
});
process.exit(code);
