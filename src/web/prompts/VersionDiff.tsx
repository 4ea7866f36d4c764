import { diffLines, diffWords, type ChangeObject } from "diff";
import { msg } from "../../domain/messages";

type Texts = { prompt_title: string; prompt_value: string | null };

/** Inline parts (the title): removed words struck through on red, added ones on green. */
function Words({ parts }: { parts: ChangeObject<string>[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i} className="bg-success/20 no-underline">
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={i} className="bg-error/20">
            {part.value}
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </>
  );
}

/** Line parts (the content): each line prefixed with +, - or a space, on green, red or nothing. */
function Lines({ parts }: { parts: ChangeObject<string>[] }) {
  return (
    <>
      {parts.flatMap((part, i) =>
        part.value
          .replace(/\n$/, "")
          .split("\n")
          .map((line, j) => {
            const key = `${i}-${j}`;
            const text = line || "\u00a0";
            if (part.added)
              return (
                <ins key={key} className="block bg-success/20 no-underline">
                  <span aria-hidden className="select-none pr-2">
                    +
                  </span>
                  {text}
                </ins>
              );
            if (part.removed)
              return (
                <del key={key} className="block bg-error/20">
                  <span aria-hidden className="select-none pr-2">
                    -
                  </span>
                  {text}
                </del>
              );
            return (
              <span key={key} className="block">
                <span aria-hidden className="select-none pr-2">
                  {" "}
                </span>
                {text}
              </span>
            );
          }),
      )}
    </>
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
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-base-content/70">Title</h3>
        <p className="break-words text-sm">
          <Words parts={diffWords(from.prompt_title, to.prompt_title)} />
        </p>
      </div>
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-base-content/70">Content</h3>
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 font-mono text-xs leading-relaxed">
          <Lines parts={diffLines(from.prompt_value ?? "", to.prompt_value ?? "")} />
        </pre>
      </div>
    </div>
  );
}
