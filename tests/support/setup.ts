import "./properties";
import { afterEach, beforeEach, expect, vi } from "vitest";

// Any console.error during a test fails it: errors must be handled, not printed.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(errors, "console.error was called").toEqual([]);
});
