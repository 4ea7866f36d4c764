import { fallbacksMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import { RecordLink } from "../components/RecordLink";
import { Muted } from "../components/text";

/** A prompt's title linking to /prompts/{prompt_id}, with an excerpt of its content under it. */
export function PromptLink({ promptId, title, excerpt }: { promptId: string; title: string; excerpt?: string | null }) {
  return <RecordLink to="/prompts/$promptId" params={{ promptId }} text={title} detail={excerpt ?? null} mono />;
}

/** The Platforms column: the names (cut at `className`'s width, in full on hover), or "No platforms" (SPEC.md §2). */
export function PlatformNames({ names, className = "max-w-56" }: { names: string[]; className?: string }) {
  if (names.length === 0) return <Muted>{promptsMsg.noPlatforms}</Muted>;
  const text = names.map((n) => n || fallbacksMsg.unnamedPlatform).join(", ");
  return (
    <span className={`block truncate ${className}`} title={text}>
      {text}
    </span>
  );
}
