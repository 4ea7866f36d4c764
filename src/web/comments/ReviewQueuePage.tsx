import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { commenterName, moderationActions, type CommentDetail } from "../../domain/comments";
import { commentStatuses, known, type CommentStatus } from "../../domain/enums";
import { commentsMsg } from "../../domain/messages/comments";
import { fallbacksMsg } from "../../domain/messages/kit";
import { ApiError, errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { StatusBadge } from "../components/badges";
import { titleCase } from "../components/format";
import { EmptyState } from "../components/inputs";
import { DateText } from "../components/text";
import { ErrorState, PageHeader, Spinner } from "../components/ui";
import { queryRoots } from "../lib/query-client";
import { KeyButton, KeysButton, useShortcutKeys } from "../lib/keyboard";
import { decide, fetchQueue } from "./queries";

type Decision = { comment: CommentDetail; from: CommentStatus; to: CommentStatus };

/**
 * The review queue (beyond the spec): the oldest pending comment with its skill, customer and
 * user; keys A approve, R reject, D deactivate, J next, K previous, U undo the last decision
 * (while the queue stays open), ? the keys. Each decision sends the status shown as the expected
 * one: a comment another operator decided meanwhile shows "Already decided by …" and the queue
 * moves on. The next comment loads in place; the count of pending comments remaining shows.
 */
export default function ReviewQueuePage() {
  const search = useSearch({ strict: false });
  const { customer } = search as { customer?: string };
  const canModerate = useCan("editor");
  const client = useQueryClient();
  const [seen, setSeen] = useState<CommentDetail[]>([]);
  const [at, setAt] = useState(0);
  const [remaining, setRemaining] = useState<number | null>(null);
  const [end, setEnd] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const undo = useRef<Decision[]>([]);
  const current = seen[at] as CommentDetail | undefined;

  /** Loads the next pending comment after `after` and shows it. */
  const loadNext = useCallback(
    async (after: string | undefined, keep: CommentDetail[]) => {
      const next = await fetchQueue({ after, customer_id: customer });
      setRemaining(next.remaining);
      if (next.comment) {
        setSeen([...keep, next.comment]);
        setAt(keep.length);
        setEnd(false);
      } else {
        setSeen(keep);
        setAt(Math.max(0, keep.length - 1));
        setEnd(true);
      }
    },
    [customer],
  );

  const run = useCallback(
    async (work: () => Promise<void>) => {
      if (busy) return;
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (err) {
        setError(errorMessage(err));
      } finally {
        setBusy(false);
      }
    },
    [busy],
  );

  useEffect(() => {
    void run(() => loadNext(undefined, []));
    // Leaving the queue refreshes the lists it changed.
    return () => void client.invalidateQueries({ queryKey: queryRoots.comments });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [customer]);

  const decideCurrent = (to: CommentStatus) =>
    run(async () => {
      if (!current || !canModerate) return;
      const label = moderationActions.find((a) => a.status === to)!.label;
      try {
        // The queue holds pending comments; a status outside the spec's list (adopted data) is sent as no expectation.
        const from = known(commentStatuses, current.status);
        const updated = await decide(current.comment_id, { status: to, expected_status: from });
        undo.current.push({ comment: current, from: from ?? "pending", to });
        setNote(commentsMsg.decided(titleCase(to)) + ` (${label})`);
        await loadNext(updated.comment_id, [...seen.slice(0, at), updated]);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          // Decided by someone else meanwhile: say so and move on.
          setNote(err.message);
          await loadNext(current.comment_id, seen.slice(0, at + 1));
          return;
        }
        throw err;
      }
    });

  const next = () =>
    run(async () => {
      setNote(null);
      if (at < seen.length - 1) setAt(at + 1);
      else if (current) await loadNext(current.comment_id, seen);
    });

  const previous = () => {
    setNote(null);
    if (at > 0) setAt(at - 1);
  };

  const undoLast = () =>
    run(async () => {
      const last = undo.current.pop();
      if (!last) {
        setNote(commentsMsg.nothingToUndo);
        return;
      }
      const restored = await decide(last.comment.comment_id, { status: last.from, expected_status: last.to });
      const index = seen.findIndex((c) => c.comment_id === restored.comment_id);
      const list = index >= 0 ? seen.map((c, i) => (i === index ? restored : c)) : [...seen, restored];
      setSeen(list);
      setAt(index >= 0 ? index : list.length - 1);
      setEnd(false);
      setRemaining((n) => (n === null ? n : n + (last.from === "pending" ? 1 : 0)));
      setNote(commentsMsg.undone);
    });

  const { setShowKeys } = useShortcutKeys(
    {
      ...Object.fromEntries(
        moderationActions.filter((a) => a.key).map((a) => [a.key!, () => void (current && decideCurrent(a.status))]),
      ),
      j: () => void next(),
      k: previous,
      u: () => void undoLast(),
    },
    commentsMsg.keys,
  );

  return (
    <>
      <PageHeader title={commentsMsg.reviewTitle} section={commentsMsg.title} subtitle={commentsMsg.reviewSubtitle} />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Link to="/comments" className="btn btn-ghost btn-sm">
          <ArrowLeft className="h-4 w-4" aria-hidden /> {commentsMsg.backToList}
        </Link>
        <span className="text-sm font-medium" data-testid="queue-remaining" aria-live="polite">
          {remaining === null ? "" : commentsMsg.remaining(remaining)}
        </span>
        <span className="sm:ml-auto">
          <KeysButton label={commentsMsg.keysTitle} onClick={() => setShowKeys(true)} />
        </span>
      </div>
      <p role="status" className="mb-3 min-h-5 text-sm" data-testid="queue-note">
        {note}
      </p>
      {error ? (
        <div className="mb-3">
          <ErrorState
            title={commentsMsg.loadError}
            message={error}
            onRetry={() => void run(() => loadNext(undefined, []))}
          />
        </div>
      ) : null}
      {remaining === null && !error ? <Spinner label={commentsMsg.loading} /> : null}
      {current && !(end && at === seen.length - 1 && current.status !== "pending") ? (
        <article
          className="rounded-box border border-base-300 bg-base-100 p-5"
          aria-labelledby="queue-comment"
          data-testid="queue-comment"
        >
          <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge kind="comment" status={current.status} />
            <span className="text-base-content/80">
              <DateText iso={current.created_at} withTime />
            </span>
          </div>
          <h2 id="queue-comment" className="sr-only">
            Comment by {commenterName(current)}
          </h2>
          <blockquote className="mb-4 whitespace-pre-wrap text-lg" data-testid="queue-text">
            {current.comment_value}
          </blockquote>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-base-content/70">User</dt>
              <dd>
                <Link to="/users/$userId" params={{ userId: current.user_id }} className="hover:underline">
                  {commenterName(current)}
                </Link>
                {current.email ? <span className="block text-base-content/70">{current.email}</span> : null}
              </dd>
            </div>
            <div>
              <dt className="text-base-content/70">Skill</dt>
              <dd>
                <Link to="/skills/$skillId" params={{ skillId: current.skill_id }} className="hover:underline">
                  {current.skill_name?.trim() || fallbacksMsg.unnamedSkill}
                </Link>
              </dd>
            </div>
            <div>
              <dt className="text-base-content/70">Customer</dt>
              <dd>{current.customer_name?.trim() || fallbacksMsg.unknownCustomer}</dd>
            </div>
          </dl>
          {canModerate ? (
            <div className="mt-5 flex flex-wrap gap-2">
              {moderationActions
                .filter((a) => a.key)
                .map((a) => (
                  <button
                    key={a.status}
                    type="button"
                    className={`btn btn-sm ${a.status === "rejected" ? "btn-outline btn-error" : a.status === "active" ? "btn-primary" : "btn-outline"}`}
                    disabled={busy || current.status === a.status}
                    onClick={() => void decideCurrent(a.status)}
                    aria-keyshortcuts={a.key!.toUpperCase()}
                  >
                    {a.label} <kbd className="kbd kbd-xs">{a.key!.toUpperCase()}</kbd>
                  </button>
                ))}
              <KeyButton label="Previous" shortcut="K" disabled={busy || at === 0} onClick={previous} />
              <KeyButton label="Next" shortcut="J" disabled={busy} onClick={() => void next()} />
              <KeyButton label="Undo" shortcut="U" disabled={busy} onClick={() => void undoLast()} />
            </div>
          ) : null}
        </article>
      ) : null}
      {end &&
      remaining !== null &&
      at === Math.max(0, seen.length - 1) &&
      (!current || current.status !== "pending") ? (
        <div className="mt-4">
          <EmptyState title={commentsMsg.queueEmpty} text={commentsMsg.queueEmptyText} />
        </div>
      ) : null}
    </>
  );
}
