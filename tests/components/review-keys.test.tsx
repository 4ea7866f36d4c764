import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useShortcutKeys } from "../../src/web/reviews/keys";

/** A screen with the review keys: `a` and `j` bound, a field to type in, the keys' state shown. */
function Screen({ a, j }: { a: () => void; j: () => void }) {
  const { showKeys } = useShortcutKeys({ a, j });
  return (
    <>
      <textarea aria-label="Comment" />
      <p data-testid="keys">{showKeys ? "shown" : "hidden"}</p>
    </>
  );
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element | Window = window) =>
  act(() => void fireEvent.keyDown(target, { key, ...init }));

describe("the review screens' keys", () => {
  it("runs a bound key, either case, and nothing with Ctrl, Cmd or Alt", () => {
    const a = vi.fn();
    const j = vi.fn();
    render(<Screen a={a} j={j} />);
    press("a");
    press("J");
    press("a", { ctrlKey: true });
    press("a", { metaKey: true });
    press("j", { altKey: true });
    press("x");
    expect(a).toHaveBeenCalledTimes(1);
    expect(j).toHaveBeenCalledTimes(1);
  });

  it("leaves the keys to a field being typed in", () => {
    const a = vi.fn();
    render(<Screen a={a} j={vi.fn()} />);
    press("a", {}, screen.getByLabelText("Comment"));
    expect(a).not.toHaveBeenCalled();
  });

  it("shows and hides the keys with ?, and runs none while they show", () => {
    const a = vi.fn();
    render(<Screen a={a} j={vi.fn()} />);
    press("?");
    expect(screen.getByTestId("keys").textContent).toBe("shown");
    press("a");
    expect(a).not.toHaveBeenCalled();
    press("?");
    expect(screen.getByTestId("keys").textContent).toBe("hidden");
    press("a");
    expect(a).toHaveBeenCalledTimes(1);
  });

  it("runs the latest action given", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = render(<Screen a={first} j={vi.fn()} />);
    rerender(<Screen a={second} j={vi.fn()} />);
    press("a");
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
