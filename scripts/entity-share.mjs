#!/usr/bin/env node
/**
 * How much of a new entity's code is its own (docs/adding-an-entity.md, "What it cost"): counts,
 * per file, the lines that carry something only that entity says against all its lines.
 *
 *   node scripts/entity-share.mjs --base <rev> --name model --columns model_id,model_name,… <files>
 *
 * A file is counted whole, or, written `path:` (a shared file it is registered in), only by the
 * lines it adds since `--base`. A line is the entity's own when it is not an import, a comment or
 * blank, and names one of its columns, names the entity (`model`, `models`, `modelId`), or holds a
 * text a person reads or a path (a quoted literal with a capital letter or a space, or starting
 * with `/`). Blank lines, comments and imports count in the total: they are part of the cost.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { base: { type: "string", default: "HEAD" }, name: { type: "string" }, columns: { type: "string" } },
  allowPositionals: true,
});
if (!values.name || !values.columns || positionals.length === 0) {
  console.error("usage: entity-share.mjs --base <rev> --name <entity> --columns <a,b,…> <file | shared-file:>…");
  process.exit(2);
}
const columns = values.columns.split(",").map((c) => new RegExp(`\\b${c}\\b`));
const named = new RegExp(`\\b${values.name}s?\\b|\\b${values.name}Id\\b`, "i");

/** true: its own; false: not; null: a comment, an import or blank (not its own either). */
function own(line) {
  const t = line.trim();
  if (!t || /^(import |\/\/|\/\*|\*|} from)/.test(t) || t.startsWith("-- ")) return null;
  if (columns.some((c) => c.test(t)) || named.test(t)) return true;
  const literals = [...t.matchAll(/"([^"]*)"|`([^`]*)`/g)].map((m) => m[1] ?? m[2]);
  return literals.some((x) => /[A-Z ]/.test(x) || x.startsWith("/"));
}

let mine = 0;
let all = 0;
for (const arg of positionals) {
  const shared = arg.endsWith(":");
  const file = shared ? arg.slice(0, -1) : arg;
  const lines = shared
    ? execFileSync("git", ["diff", "-U0", values.base, "--", file], { encoding: "utf8" })
        .split("\n")
        .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
        .map((l) => l.slice(1))
    : readFileSync(file, "utf8").replace(/\n$/, "").split("\n");
  const o = lines.filter((l) => own(l) === true).length;
  mine += o;
  all += lines.length;
  console.log(`${file.padEnd(48)} ${String(o).padStart(4)} / ${String(lines.length).padStart(4)}`);
}
console.log(
  `${"total".padEnd(48)} ${String(mine).padStart(4)} / ${String(all).padStart(4)} = ${Math.round((100 * mine) / all)} %`,
);
