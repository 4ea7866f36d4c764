import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import "../support/properties";

// happy-dom's <dialog> has no modal behaviour of its own: open/close is enough for these tests.
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
}
afterEach(() => cleanup());
