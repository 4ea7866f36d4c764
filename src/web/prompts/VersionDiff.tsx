import type { ReactNode } from "react";
import { diffLines, diffWords, type ChangeObject } from "diff";
import { msg } from "../../domain/messages";

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

/**
 * An inline diff of a version (`from`) against the current prompt (`to`): the title word by word,
 * the content line by line; removed text struck through on red, added text on green (and read as
 * deleted / inserted by screen readers).
 */
export function VersionDiff({ from, to }: { from: Texts; to: Texts }) {
  const same = from.prompt_title === to.prompt_title && (from.prompt_value ?? "") === (to.prompt_value ?? "");
  if (same) return <p className="text-sm">{msg.prompts.diffSame}</p>;
  return (
    <div className="flex flex-col gap-4" data-testid="version-diff">
      <Field heading="Title">
        <p className="break-words text-sm">
          <Words parts={diffWords(from.prompt_title, to.prompt_title)} />
        </p>
      </Field>
      <Field heading="Content">
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 font-mono text-xs leading-relaxed">
          <Lines parts={diffLines(from.prompt_value ?? "", to.prompt_value ?? "")} />
        </pre>
      </Field>
    </div>
  );
}
