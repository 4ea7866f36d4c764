import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { msg } from "../../src/domain/messages";
import { api, ApiError } from "../../src/web/api/client";
import { ReauthGate } from "../../src/web/auth/ReauthGate";
// The gate loads its dialog with import() when first asked: loaded here first, so that the
// first test does not wait on a cold transform.
import "../../src/web/auth/ReauthDialog";

/** The server's answers, in order, to whatever the client sends (the API itself is tested in tests/api/reauthenticate.test.ts). */
function answers(...replies: Array<[number, unknown]>) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => {
    const [status, body] = replies.shift() ?? [500, {}];
    return Response.json(body, { status });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
const asked = [403, { error: { code: "reauthentication_required", message: msg.reauth.required } }] as [
  number,
  unknown,
];
const reset = () => api("/operators/o-1/reset-password", z.unknown(), { method: "POST", body: { password: "x" } });

describe("Confirm it is you", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("opens when an admin action asks, shows a wrong password under the field, then sends the action again once", async () => {
    const fetch = answers(
      asked,
      [
        422,
        {
          error: {
            code: "validation_failed",
            message: msg.reauth.wrongPassword,
            fields: { current_password: msg.reauth.wrongPassword },
          },
        },
      ],
      [200, { confirmed_until: "2026-11-29T10:10:00.000Z" }],
      [200, { ok: true }],
    );
    render(<ReauthGate twoFactor={false} />);
    const done = reset();
    const dialog = await screen.findByRole("dialog", { name: msg.reauth.title }, { timeout: 5_000 });
    expect(dialog.textContent).toContain(msg.reauth.intro);
    expect(screen.queryByRole("button", { name: msg.reauth.useCode })).toBeNull();
    await userEvent.type(screen.getByLabelText(new RegExp(msg.reauth.password)), "wrong");
    await userEvent.click(screen.getByRole("button", { name: msg.reauth.submit }));
    await waitFor(() => expect(screen.getByTestId("field-error").textContent).toBe(msg.reauth.wrongPassword));
    await userEvent.clear(screen.getByLabelText(new RegExp(msg.reauth.password)));
    await userEvent.type(screen.getByLabelText(new RegExp(msg.reauth.password)), "right{Enter}");
    await expect(done).resolves.toEqual({ ok: true });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const sent = fetch.mock.calls.map(([url, init]) => `${(init as RequestInit).method} ${String(url)}`);
    expect(sent).toEqual([
      "POST /api/operators/o-1/reset-password",
      "POST /api/account/reauthenticate",
      "POST /api/account/reauthenticate",
      "POST /api/operators/o-1/reset-password",
    ]);
    expect(JSON.parse((fetch.mock.calls[2][1] as RequestInit).body as string)).toEqual({ current_password: "right" });
  });

  it("asks once for two requests at once, offers the authenticator's code, and Cancel fails the action with the server's message", async () => {
    answers(asked, asked);
    render(<ReauthGate twoFactor />);
    const first = reset().catch((e: unknown) => e);
    const second = reset().catch((e: unknown) => e);
    await screen.findByRole("dialog", { name: msg.reauth.title }, { timeout: 5_000 });
    await waitFor(() => expect(screen.getAllByRole("dialog")).toHaveLength(1));
    await userEvent.click(screen.getByRole("button", { name: msg.reauth.useCode }));
    expect(screen.getByLabelText(new RegExp(msg.reauth.code))).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: msg.ui.cancel }));
    for (const outcome of [await first, await second]) {
      expect(outcome).toBeInstanceOf(ApiError);
      expect((outcome as ApiError).message).toBe(msg.reauth.required);
    }
  });
});
