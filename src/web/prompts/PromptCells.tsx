import { Link } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { Muted } from "../components/text";

/** A prompt's title linking to /prompts/{prompt_id}, with an excerpt of its content under it. */
export function PromptLink({ promptId, title, excerpt }: { promptId: string; title: string; excerpt?: string | null }) {
  return (
    <div className="min-w-0">
      <Link to="/prompts/$promptId" params={{ promptId }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={title}>
        {title}
      </Link>
      {excerpt ? <span className="block min-w-0 truncate font-mono text-xs text-base-content/70" title={excerpt}>{excerpt}</span> : null}
    </div>
  );
}

/** The Platforms column: the names, or "No platforms" (SPEC.md §2). */
export function PlatformNames({ names }: { names: string[] }) {
  if (names.length === 0) return <Muted>{msg.prompts.noPlatforms}</Muted>;
  const text = names.map((n) => n || msg.fallbacks.unnamedPlatform).join(", ");
  return <span className="block max-w-56 truncate" title={text}>{text}</span>;
}
