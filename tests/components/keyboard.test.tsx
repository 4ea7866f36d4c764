import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { msg } from "../../src/domain/messages";
import { goToWindowMs, KeyboardProvider, useShortcutKeys } from "../../src/web/keyboard/keyboard";

const goTo = [
  { key: "c", label: "Customers", to: "/customers" },
  { key: "u", label: "Users", to: "/users" },
];

/** A screen with its own keys (`a`, `j`), a field to type in, and the shortcuts dialog's state. */
function Screen({ a, j }: { a: () => void; j: () => void }) {
  const { showKeys } = useShortcutKeys({ a, j }, [
    ["A", "Approve"],
    ["J", "Next"],
  ]);
  return (
    <>
      <textarea aria-label="Comment" />
      <p data-testid="keys">{showKeys ? "shown" : "hidden"}</p>
    </>
  );
}

/** The app's keyboard around a screen, with a clock the test moves. */
function renderApp(props: { a?: () => void; j?: () => void; onGo?: (to: string) => void }) {
  const clock = { now: 1_000 };
  const onGo = props.onGo ?? vi.fn();
  const view = render(
    <KeyboardProvider goTo={goTo} onGo={onGo} now={() => clock.now}>
      <Screen a={props.a ?? vi.fn()} j={props.j ?? vi.fn()} />
    </KeyboardProvider>,
  );
  return { clock, onGo, view };
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element | Window = window) =>
  act(() => void fireEvent.keyDown(target, { key, ...init }));

describe("the console's keyboard", () => {
  it("runs a screen's key, either case, and nothing with Ctrl, Cmd or Alt", () => {
    const a = vi.fn();
    const j = vi.fn();
    renderApp({ a, j });
    press("a");
    press("J");
    press("a", { ctrlKey: true });
    press("a", { metaKey: true });
    press("j", { altKey: true });
    press("x");
    expect(a).toHaveBeenCalledTimes(1);
    expect(j).toHaveBeenCalledTimes(1);
  });

  it("leaves every key to a field being typed in, g included", () => {
    const a = vi.fn();
    const onGo = vi.fn();
    renderApp({ a, onGo });
    const field = screen.getByLabelText("Comment");
    press("a", {}, field);
    press("g", {}, field);
    press("c", {}, field);
    press("?", {}, field);
    expect(a).not.toHaveBeenCalled();
    expect(onGo).not.toHaveBeenCalled();
    expect(screen.getByTestId("keys").textContent).toBe("hidden");
  });

  it("goes to a list with g then its letter, within the window only", () => {
    const { clock, onGo } = renderApp({});
    press("g");
    press("c");
    expect(onGo).toHaveBeenLastCalledWith("/customers");
    press("g");
    clock.now += goToWindowMs + 1;
    press("u");
    expect(onGo).toHaveBeenCalledTimes(1);
    press("g");
    press("z");
    press("u");
    expect(onGo).toHaveBeenCalledTimes(1);
  });

  it("shows every shortcut with ?: the screen's, Go to and Anywhere, and runs none while they show", () => {
    const a = vi.fn();
    const onGo = vi.fn();
    renderApp({ a, onGo });
    press("?");
    expect(screen.getByTestId("keys").textContent).toBe("shown");
    const list = screen.getByTestId("shortcuts");
    expect(list.textContent).toContain(msg.shortcuts.onThisScreen);
    expect(list.textContent).toContain("Approve");
    expect(list.textContent).toContain(msg.shortcuts.goToKeys("c"));
    expect(list.textContent).toContain(msg.shortcuts.search);
    press("a");
    press("g");
    press("c");
    expect(a).not.toHaveBeenCalled();
    expect(onGo).not.toHaveBeenCalled();
    press("?");
    expect(screen.getByTestId("keys").textContent).toBe("hidden");
    press("a");
    expect(a).toHaveBeenCalledTimes(1);
  });

  it("leaves the keys alone while another dialog is open", () => {
    const a = vi.fn();
    renderApp({ a });
    const other = document.createElement("dialog");
    other.setAttribute("open", "");
    document.body.append(other);
    press("a");
    press("?");
    other.remove();
    expect(a).not.toHaveBeenCalled();
    expect(screen.getByTestId("keys").textContent).toBe("hidden");
  });

  it("runs the latest action given", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { view } = renderApp({ a: first });
    view.rerender(
      <KeyboardProvider goTo={goTo} onGo={vi.fn()}>
        <Screen a={second} j={vi.fn()} />
      </KeyboardProvider>,
    );
    press("a");
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe("the go-to letters", () => {
  it("give every sidebar entry its own letter", async () => {
    const { navEntries } = await import("../../src/web/lib/features");
    const entries = [...navEntries(), ...navEntries("admin")];
    const letters = entries.map((e) => e.key);
    expect(entries.length).toBeGreaterThan(10);
    expect(new Set(letters).size).toBe(letters.length);
    for (const letter of letters) expect(letter).toMatch(/^[a-z]$/);
    // `g` itself starts the sequence; `?` shows the list.
    expect(letters).not.toContain("g");
  });
});
