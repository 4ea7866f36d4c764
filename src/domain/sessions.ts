import { z } from "zod";
import { timestamp } from "./common";

/** One signed-in browser of an operator (docs/identity.md "Sessions"); never its token. */
export const operatorSessionSchema = z.object({
  id: z.string(),
  /** The browser and system as people read them ("Chrome 131 on macOS"), from the user agent. */
  browser: z.string(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  /** When the operator signed in. */
  created_at: timestamp,
  /** The session's last use, to the minute (the sliding expiry is pushed at most once a minute). */
  last_seen_at: timestamp,
  expires_at: timestamp,
  /** Whether this is the session of the request that asked. */
  current: z.boolean(),
});
export type OperatorSessionRow = z.infer<typeof operatorSessionSchema>;

/** An operator's live sessions, most recently used first, at most `sessionListLimit` of them. */
export const operatorSessionsSchema = z.object({ items: z.array(operatorSessionSchema), total: z.number().int() });

/** The most sessions a list shows (an operator rarely has more than a handful). */
export const sessionListLimit = 100;
