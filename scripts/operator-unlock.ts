/**
 * `npm run operator:unlock -- --email E` releases the sign-in lock of an operator, in the
 * configured database, with an `unlock` audit row. The way back in when every admin is locked out
 * after failed sign-ins (a lock otherwise lasts LOCKOUT_MINUTES). While a console runs on the
 * embedded database (which it holds), that console does the unlock (src/server/maintenance.ts).
 * Exit code 1 when no operator has that email, 2 on bad arguments.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { emailAddress } from "../src/domain/text";
import { unlockOperator } from "../src/server/auth";
import { withDatabase } from "../src/server/database";
import { askRunningConsole } from "../src/server/maintenance";

const { values } = parseArgs({ options: { email: { type: "string" } } });
const input = z
  .object({ email: emailAddress({ required: "--email is required", invalid: "--email must be an email address" }) })
  .safeParse(values);
if (!input.success) {
  console.error(input.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("\n"));
  console.error("usage: npm run operator:unlock -- --email you@example.com");
  process.exit(2);
}
const code = await withDatabase(
  async (handle) => {
    if (!(await unlockOperator(handle.db, input.data.email))) {
      console.error(`No operator has the email ${input.data.email}.`);
      return 1;
    }
    console.log(`Operator ${input.data.email} unlocked: they can sign in again.`);
    return 0;
  },
  // The console holds the embedded database: it runs the unlock itself (src/server/maintenance.ts).
  async (config) => {
    const answer = await askRunningConsole(config.dataDir, config.authSecret, "unlock", input.data.email);
    if (!answer) return undefined;
    (answer.code === 0 ? console.log : console.error)(answer.message);
    return answer.code;
  },
);
process.exit(code);
