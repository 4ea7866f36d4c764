import { defineConfig } from "drizzle-kit";

/**
 * drizzle-kit's settings (docs/configuration.md, commands): `npm run db:generate` (drizzle-kit
 * generate) writes a migration from `schema.ts`; `npm run db:migrate` applies them, on the embedded
 * database too. `npx drizzle-kit migrate` and `studio` reach a PostgreSQL server through
 * DATABASE_URL; both record applied migrations in the same table (drizzle.__drizzle_migrations).
 */
const reachesDatabase = process.argv.some((a) => ["migrate", "push", "pull", "studio"].includes(a));
if (reachesDatabase && !process.env.DATABASE_URL)
  throw new Error(
    "drizzle-kit needs DATABASE_URL to reach a PostgreSQL server. For the embedded database (DATA_DIR), run `npm run db:migrate` instead.",
  );

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema.ts",
  out: "./src/server/db/migrations",
  ...(process.env.DATABASE_URL ? { dbCredentials: { url: process.env.DATABASE_URL } } : {}),
});
