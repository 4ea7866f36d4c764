import { useEffect, useRef, useState } from "react";
import { useSearch } from "@tanstack/react-router";
import { importMsg } from "../../domain/import-messages";
import type { Import } from "../../domain/imports";
import { navMsg } from "../../domain/messages/common";
import { RoleGate } from "../components/actions";
import { PageHeader } from "../components/ui";
import { FileStep, type FileDraft } from "./FileStep";
import { MappingStep } from "./MappingStep";
import { PreviewStep } from "./PreviewStep";

/** Where the import is: choosing the file, mapping its columns, or previewing (then applying) it. */
type Stage = { step: "file" } | { step: "mapping"; imp: Import } | { step: "preview"; imp: Import };

const steps = [
  { step: "file", label: importMsg.stepFile },
  { step: "mapping", label: importMsg.stepMapping },
  { step: "preview", label: importMsg.stepPreview },
] as const;

/**
 * "/users/import" (docs/onboarding.md "Import"): a CSV file of users imported in three steps.
 * File: the customer (`?customer=` presets it, the customer page's "Import users") or "each row
 * names its customer", a file chosen or dropped, or rows pasted; its bytes are sent in parts and
 * read by the server. Columns: the file's facts and one column per field, as the server suggests
 * them. Preview: the counts of each outcome, the rows paged by the server with their outcome and
 * reason, filtered and searched, a row in error fixed in place, the rows in error downloaded; then
 * the import applied as a bulk run (progress, report, Download CSV, Undo). Editors and admins only.
 */
export default function ImportPage() {
  return (
    <RoleGate need="editor" title={importMsg.title}>
      <ImportSteps />
    </RoleGate>
  );
}

function ImportSteps() {
  const { customer } = useSearch({ from: "/users/import" });
  const fresh = (): FileDraft => ({ mode: "one", customerId: customer, file: null, text: "" });
  const [draft, setDraft] = useState<FileDraft>(fresh);
  const [stage, setStage] = useState<Stage>({ step: "file" });
  // The customer page's link opened again with another customer: that one is preset.
  useEffect(() => {
    if (customer) setDraft((d) => ({ ...d, mode: "one", customerId: customer }));
  }, [customer]);
  // Focus moves to a step's heading when the operator moves to it, not when the page opens.
  const moved = useRef(false);
  const go = (next: Stage) => {
    moved.current = true;
    setStage(next);
  };
  const imp = stage.step === "file" ? null : stage.imp;
  return (
    <>
      <PageHeader
        title={importMsg.title}
        section={navMsg.users}
        subtitle={imp ? importMsg.importOf(imp.file_name, imp.customer_name) : importMsg.subtitle}
      />
      <ol className="steps mb-6 w-full text-sm" aria-label={importMsg.stepsLabel}>
        {steps.map((s, i) => {
          const at = steps.findIndex((x) => x.step === stage.step);
          return (
            <li
              key={s.step}
              className={`step ${i <= at ? "step-primary" : ""}`}
              aria-current={i === at ? "step" : undefined}
            >
              {s.label}
            </li>
          );
        })}
      </ol>
      {stage.step === "file" ? (
        <FileStep
          draft={draft}
          onDraft={setDraft}
          focus={moved.current}
          onRead={(read) => go({ step: "mapping", imp: read })}
        />
      ) : stage.step === "mapping" ? (
        <MappingStep
          key={stage.imp.import_id}
          imp={stage.imp}
          focus={moved.current}
          onBack={() => go({ step: "file" })}
          onPreviewed={(previewed) => go({ step: "preview", imp: previewed })}
        />
      ) : (
        <PreviewStep
          key={stage.imp.import_id}
          imp={stage.imp}
          focus={moved.current}
          onBack={() => go({ step: "mapping", imp: stage.imp })}
          onStartOver={() => {
            setDraft(fresh());
            go({ step: "file" });
          }}
        />
      )}
    </>
  );
}
