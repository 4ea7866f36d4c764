import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { notify, Notices } from "../../src/web/components/overlays";

/** Lets the lazy toaster and the notices' promises settle under fake timers. */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe("notices (SPEC.md §9: a success message hides after 3 s)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "requestAnimationFrame"] });
  });
  afterEach(() => vi.useRealTimers());

  it("a notice sent while the one before is leaving shows for its own full time", async () => {
    render(<Notices />);
    await vi.waitFor(() => expect(screen.getByRole("region")).toBeTruthy(), { timeout: 5_000 });
    notify("Skill created successfully!", { durationMs: 1_000 });
    await settle(50);
    expect(screen.getByTestId("success-banner").textContent).toContain("Skill created successfully!");

    // The first notice's time is up: it starts to leave, and the next arrives during its exit.
    await settle(1_000);
    notify("Skill updated successfully!");
    await settle(50);
    expect(screen.getByTestId("success-banner").textContent).toContain("Skill updated successfully!");
    await settle(2_800);
    expect(screen.getByTestId("success-banner").textContent).toContain("Skill updated successfully!");
    await settle(500);
    expect(screen.queryByTestId("success-banner")).toBeNull();
  });

  it("a newer notice replaces the one showing; only the newer answers to its test id", async () => {
    render(<Notices />);
    await vi.waitFor(() => expect(screen.getByRole("region")).toBeTruthy(), { timeout: 5_000 });
    notify("First", { durationMs: 6_000 });
    await settle(50);
    notify("Second");
    // While the first fades out, the second is the only notice by its test id.
    for (let step = 0; step < 6; step += 1) {
      await settle(20);
      expect(screen.getAllByTestId("success-banner")).toHaveLength(1);
      expect(screen.getByTestId("success-banner").textContent).toContain("Second");
    }
    await settle(300);
    expect(screen.queryByText("First")).toBeNull();
    expect(screen.getByTestId("success-banner").textContent).toContain("Second");
  });
});
