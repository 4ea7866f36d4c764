/**
 * Property runs (fast-check) repeat from run to run: every property takes one seed, FC_SEED or a
 * fixed default, so that CI checks the same cases each time and a failure can be replayed; a
 * developer draws new cases with `FC_SEED=random` and more of them with FC_RUNS_SCALE (say 10).
 * Loaded by both Vitest setups (tests/support/setup.ts, tests/components/setup.ts).
 */
import fc from "fast-check";

const seedSetting = process.env.FC_SEED ?? "20261128";
/** The seed every property of this run uses (printed by fast-check with any failure). */
export const propertySeed = seedSetting === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(seedSetting);

const scale = Number(process.env.FC_RUNS_SCALE ?? 1);

/** `n` runs of a property, times FC_RUNS_SCALE (at least one). */
export const propertyRuns = (n: number): number => Math.max(1, Math.round(n * (Number.isFinite(scale) ? scale : 1)));

fc.configureGlobal({ seed: propertySeed, numRuns: propertyRuns(100) });
