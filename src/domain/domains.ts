import { z } from "zod";
import { textMsg } from "./messages/api";
import { editMsg } from "./messages/edit";

/** The most domains one customer may list (the collision check sends them all in one array). */
export const maxDomains = 200;

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * One entry of a customer's valid domains as the console stores it, or null when it is not a
 * domain name: trimmed and lower-cased; a scheme ("https://"), user, port and path dropped; an
 * internationalised name turned into its punycode form (`new URL`, the same WHATWG/UTS-46 mapping
 * as Node's `url.domainToASCII`, available to the form in the browser too). A name is valid with at
 * least two labels of 1–63 characters of a–z, 0–9 and "-" (not at either end), 253 at most in all.
 */
export function normaliseDomain(entry: string): string | null {
  let text = entry.trim().toLowerCase();
  if (!text) return null;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  text = text.replace(/^[^/?#]*@/, "");
  text = text.split(/[/?#]/)[0].replace(/:\d*$/, "").replace(/\.$/, "");
  if (!text || /[\s:@[\]\\]/.test(text)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${text}`).hostname;
  } catch {
    return null;
  }
  if (ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((l) => label.test(l))) return null;
  // An address like 10.0.0.1 is not a domain name.
  if (labels.every((l) => /^\d+$/.test(l))) return null;
  return ascii;
}

/** The entries of a valid-domains text: one per line or separated by commas (semicolons too), empties dropped. */
export function splitDomains(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);
}

/**
 * The valid-domains field of the customer form and API: text of domains one per line or
 * comma-separated, each normalised (`normaliseDomain`), duplicates dropped, stored one per line
 * (the format the console has always stored), null when empty, undefined when left out. An entry that is not a domain
 * name is refused with a message naming it.
 */
export function validDomainsField(max: number, invalidType: string) {
  return z
    .string({ error: invalidType })
    .max(max, textMsg.tooLong("Valid domains", max))
    .nullish()
    .transform((text, ctx) => {
      // Left out: unchanged (an edit of other fields); null or "" clears.
      if (text === undefined) return undefined;
      const out: string[] = [];
      for (const entry of splitDomains(text)) {
        const domain = normaliseDomain(entry);
        if (!domain) {
          ctx.addIssue({ code: "custom", message: editMsg.domainInvalid(entry.slice(0, 100)) });
          return z.NEVER;
        }
        if (!out.includes(domain)) out.push(domain);
      }
      if (out.length > maxDomains) {
        ctx.addIssue({ code: "custom", message: editMsg.domainsTooMany(maxDomains) });
        return z.NEVER;
      }
      return out.length ? out.join("\n") : null;
    });
}

/** The domain part of an e-mail address, lower case. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();
