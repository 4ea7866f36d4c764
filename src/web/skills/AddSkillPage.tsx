import { useEffect, useState } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { msg, timings } from "../../domain/messages";
import { BackLink } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { useCreateSkill } from "./queries";
import { SkillForm } from "./SkillForm";

/** SPEC.md §2 "/skills/add": the skill form; "Skill created successfully!", then /skills after 1.5 s (§9). */
export default function AddSkillPage() {
  const navigate = useNavigate();
  const create = useCreateSkill();
  const [created, setCreated] = useState(false);
  useDocumentTitle(msg.skills.addTitle, msg.nav.skills);

  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => void navigate({ to: "/skills" }), timings.afterSkillChangeMs);
    return () => clearTimeout(timer);
  }, [created, navigate]);

  return (
    <FormPage back={<BackLink to="/skills" label={msg.skills.backToList} />}>
      <FormCard title={msg.skills.addTitle} subtitle={msg.skills.addSubtitle}>
        <SkillForm
          locked={created}
          submitLabel={msg.skills.create}
          busyLabel={msg.skills.creating}
          cancel={(allowLeave) => (
            <Link to="/skills" activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
          )}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            notify(msg.skills.created);
            setCreated(true);
          }}
        />
      </FormCard>
    </FormPage>
  );
}
