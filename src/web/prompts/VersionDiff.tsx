import type { ReactNode } from "react";
import { diffLines, diffWords, type ChangeObject } from "diff";
import { promptsMsg } from "../../domain/messages/prompts";
import { variableChanges, variableList } from "../../domain/prompt-changes";

type Texts = { prompt_title: string; prompt_value: string | null };

/** How a part shows: added text on green (read as inserted), removed text struck through on red (read as deleted). */
const looks = {
  added: { Tag: "ins", className: "bg-success/20 no-underline", mark: "+" },
  removed: { Tag: "del", className: "bg-error/20", mark: "-" },
  same: { Tag: "span", className: undefined, mark: " " },
} as const;
const lookOf = (part: ChangeObject<string>) => (part.added ? looks.added : part.removed ? looks.removed : looks.same);

/** Inline parts (the title), word by word. */
function Words({ parts }: { parts: ChangeObject<string>[] }) {
  return (
    <>
      {parts.map((part, i) => {
        const { Tag, className } = lookOf(part);
        return (
          <Tag key={i} className={className}>
            {part.value}
          </Tag>
        );
      })}
    </>
  );
}

/** Line parts (the content): each line prefixed with +, - or a space. */
function Lines({ parts }: { parts: ChangeObject<string>[] }) {
  return (
    <>
      {parts.flatMap((part, i) => {
        const { Tag, className, mark } = lookOf(part);
        return part.value
          .replace(/\n$/, "")
          .split("\n")
          .map((line, j) => (
            <Tag key={`${i}-${j}`} className={className ? `block ${className}` : "block"}>
              <span aria-hidden className="select-none pr-2">
                {mark}
              </span>
              {line || "\u00a0"}
            </Tag>
          ));
      })}
    </>
  );
}

/** One compared field under its small heading. */
function Field({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-base-content/70">{heading}</h3>
      {children}
    </div>
  );
}

/** The `{{variables}}` a change adds and removes, named (nothing when it changes none). */
export function VariableChanges({ from, to }: { from: string | null | undefined; to: string | null | undefined }) {
  const { added, removed } = variableChanges(from, to);
  if (added.length === 0 && removed.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="variable-changes">
      {added.length ? (
        <li className="break-words">
          <ins className="rounded bg-success/20 px-1 font-mono no-underline">
            {promptsMsg.variablesAdded(variableList(added))}
          </ins>
        </li>
      ) : null}
      {removed.length ? (
        <li className="break-words">
          <del className="rounded bg-error/20 px-1 font-mono">{promptsMsg.variablesRemoved(variableList(removed))}</del>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * An inline diff of one state of a prompt (`from`: a version, or the live prompt) against another
 * (`to`: the current prompt, or a proposed change): the title word by word, the content line by
 * line; removed text struck through on red, added text on green (and read as deleted / inserted by
 * screen readers); then the `{{variables}}` it adds and removes. `same` is what it says when the
 * texts do not differ. Used by the Versions panel's Compare, the Pending review panel and the
 * review screen.
 */
export function VersionDiff({ from, to, same = promptsMsg.diffSame }: { from: Texts; to: Texts; same?: string }) {
  const unchanged = from.prompt_title === to.prompt_title && (from.prompt_value ?? "") === (to.prompt_value ?? "");
  if (unchanged) return <p className="text-sm">{same}</p>;
  return (
    <div className="flex flex-col gap-4" data-testid="version-diff">
      <Field heading="Title">
        <p className="break-words text-sm">
          <Words parts={diffWords(from.prompt_title, to.prompt_title)} />
        </p>
      </Field>
      <Field heading="Content">
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 font-mono text-xs leading-relaxed">
          <Lines parts={diffLines(from.prompt_value ?? "", to.prompt_value ?? "", { ignoreNewlineAtEof: true })} />
        </pre>
      </Field>
      <VariableChanges from={from.prompt_value} to={to.prompt_value} />
    </div>
  );
}
