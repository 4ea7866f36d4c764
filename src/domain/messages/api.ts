/**
 * The API's refusals, the sign-in's lockouts and the checks of free text (src/domain/text.ts).
 */

export const apiMsg = {
  unauthorized: "Sign in to continue",
  forbidden: "Your role does not allow this action",
  badJson: "The request body is not valid JSON",
  malformed: "Malformed identifier or value",
  crossOrigin: "Requests that change data must come from the console itself",
  nul: "Text cannot contain NUL characters",
  badCursor: "This page link is out of date or malformed. Go back to the first page.",
  pagingExclusive: "Give at most one of cursor, offset and at",
  searchTooLong: "Search text is limited to 200 characters",
  outOfRange: "A value is out of the range the console can store or compare",
  duplicate: "This conflicts with a record that already exists",
  tooLarge: (limit: string) => `The request body is larger than the ${limit} the console accepts`,
  jsonOnly: "Send the request body as JSON (content-type: application/json)",
  unavailable: "The console cannot reach its database right now. Try again in a moment.",
  stopping: "This console server is stopping; another one will answer.",
  tooSlow: "The database took too long to answer this. Narrow it down (a filter, a search) and try again.",
} as const;

export const textMsg = {
  bidi: "Names cannot contain text direction control characters",
  emailRequired: "Email address is required",
  emailInvalid: "Please enter a valid email address",
  emailTooLong: (max: number) => `Email address must be at most ${max} characters`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max.toLocaleString("en-US")} characters`,
} as const;

export const authMsg = {
  tooManyAttempts: (wait: string) => `Too many failed sign-in attempts. Try again in ${wait}.`,
  locked: (wait: string) =>
    `This account is locked after too many failed sign-ins. Try again in ${wait}, or ask an administrator to unlock it.`,
} as const;
