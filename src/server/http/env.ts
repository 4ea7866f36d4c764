import type pino from "pino";
import type { AnalyticsFigureData } from "../../domain/analytics";
import type { Auth, SessionData } from "../auth";
import type { OperatorRole, PromptReviewMode } from "../../domain/enums";
import type { CredentialCache } from "../credential-cache";
import type { Database } from "../db/client";
import type { Snapshots } from "../snapshots";
import type { TokenRateCounter } from "../tokens";
import type { ListSettings, SummaryCache } from "./lists";

/**
 * Per-request variables every handler reads with `c.get` (Hono's `c.var` builds a new object of
 * all of them on each read; the audit's `AuditRequest` keeps that shape for runs made off a request).
 */
export type AppEnv = {
  Variables: {
    db: Database;
    auth: Auth;
    logger: pino.Logger;
    requestId: string;
    session: SessionData | null;
    /** This server copy's kept sessions and tokens (credential-cache.ts), when it keeps any. */
    credentials?: CredentialCache;
    /** This app's count of token requests against their per-minute limits. */
    tokenRate: TokenRateCounter;
    /**
     * The personal API token of a request made with `Authorization: Bearer` (then `session` is its
     * operator with the token's effective role); undefined for a cookie session. `platformId`: a
     * delivery token, which reads that platform's prompts only (docs/prompt-review.md).
     * The operator's own role, which REQUIRE_MFA reads, is `session.user.operatorRole`.
     */
    apiToken?: { id: string; role: OperatorRole; platformId: string | null };
    /** The app's clock (tests move it): windows and lifetimes are measured by it. */
    clock: () => Date;
    /** The console's public address (PUBLIC_URL), without a trailing slash: the SCIM base URL is made from it. */
    publicUrl: string;
    /** The client's address (X-Forwarded-For only behind a trusted proxy). */
    clientIp: string;
    /** The list engine's settings and this app's memory of big lists' summaries. */
    lists: { settings: ListSettings; cache: SummaryCache; now: () => number };
    /** PROMPT_REVIEW: which prompt changes wait for review (docs/prompt-review.md). */
    promptReview: PromptReviewMode;
    /** This app's snapshots of the costly analytics figures (docs/decisions.md "Analytics"). */
    analytics: Snapshots<AnalyticsFigureData>;
  };
};
