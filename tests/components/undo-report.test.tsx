import { describe, expect, it } from "vitest";
import type { RestoreReport } from "../../src/domain/deleted";
import { msg } from "../../src/domain/messages";
import { reportText } from "../../src/web/components/undo";

const report = (restored: number, notRestored: Array<{ label: string; reason: string }>): RestoreReport => ({
  deletion_id: "d-1",
  entity: "prompt",
  entity_id: "p-1",
  label: "Greeting",
  restored: Array.from({ length: restored }, (_, i) => ({ kind: "prompt_platform", id: `x-${i}`, label: `Part ${i}` })),
  not_restored: notRestored.map((p, i) => ({ kind: "prompt_platform", id: `y-${i}`, ...p })),
});

/** The restore notice's link to the prompt's page. */
const open = { label: msg.deleted.open, to: "/prompts/$promptId", params: { promptId: "p-1" } };

describe("the notice after a restore", () => {
  it("says what came back with it, and what could not and why, with a link to the record", () => {
    expect(reportText(report(3, []))).toEqual({
      text: msg.deleted.restored("Greeting"),
      detail: msg.deleted.restoredWith(2),
      link: open,
    });
    const reason = msg.deleted.reasons.sentForReview;
    expect(reportText(report(1, [{ label: "Acme", reason }]))).toEqual({
      text: msg.deleted.restored("Greeting"),
      detail: `${msg.deleted.partial(1)} Acme (${reason})`,
      link: open,
    });
  });

  it("links a restored link to the record its id starts with", () => {
    expect(reportText({ ...report(1, []), entity: "team_member", entity_id: "t-1:u-1" }).link).toEqual({
      label: msg.deleted.open,
      to: "/teams/$teamId",
      params: { teamId: "t-1" },
    });
  });

  it("does not say restored when prompt review made the restore a proposal", () => {
    expect(reportText(report(0, [{ label: "Greeting", reason: msg.deleted.reasons.sentForReview }]))).toEqual({
      text: msg.deleted.sentForReview("Greeting"),
    });
  });
});
