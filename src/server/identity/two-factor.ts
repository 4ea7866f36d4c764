/**
 * Two-factor sign-in (docs/identity.md): better-auth's two-factor plugin with TOTP (30-second
 * steps, six digits, one step of clock skew either way) and ten recovery codes.
 *
 * The plugin keeps recovery codes encrypted; ours are kept as SHA-256 hashes instead, so that the
 * database never holds a usable code: `storeBackupCodes` turns the list into hashes (an entry
 * already hashed stays as it is, since the plugin re-encodes the remaining list after each use),
 * and the verify wrapper hashes the code typed before the plugin compares it.
 */
import { createHash } from "node:crypto";
import { twoFactor } from "better-auth/plugins";

const hashedMark = "sha256:";

/** A recovery code as it is stored: its SHA-256, hex, marked. Surrounding spaces are ignored; case is not (codes mix it). */
export function hashRecoveryCode(code: string): string {
  if (code.startsWith(hashedMark)) return code;
  return hashedMark + createHash("sha256").update(code.trim()).digest("hex");
}

/** The better-auth two-factor plugin as the console configures it. */
export function twoFactorPlugin() {
  return twoFactor({
    issuer: "Pedal Console",
    twoFactorTable: "operator_two_factor",
    // One lock for passwords and codes alike: ours (security.ts, per address and per account, which
    // an admin can release). The plugin's own would lock by the wall clock, out of an admin's reach.
    accountLockout: { enabled: false },
    backupCodeOptions: {
      amount: 10,
      length: 10,
      storeBackupCodes: {
        encrypt: (json: string) =>
          Promise.resolve(JSON.stringify((JSON.parse(json) as string[]).map(hashRecoveryCode))),
        decrypt: (stored: string) => Promise.resolve(stored),
      },
    },
  });
}
