import { Link, useNavigate } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { PlatformForm } from "./PlatformForm";
import { useCreatePlatform } from "./queries";

/** /platforms/add (SPEC.md §2 links it; docs/decisions.md): the platform form; on success opens the new platform. */
export default function AddPlatformPage() {
  const navigate = useNavigate();
  const create = useCreatePlatform();
  useDocumentTitle(msg.platforms.addTitle, msg.nav.platforms);

  return (
    <FormPage back={<BackLink to="/platforms" label={msg.platforms.backToList} />}>
      <FormCard title={msg.platforms.addTitle} subtitle={msg.platforms.addSubtitle}>
        <PlatformForm
          submitLabel={msg.platforms.create}
          busyLabel={msg.platforms.creating}
          cancel={(allowLeave) => (
            <Link to="/platforms" activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
          )}
          onSubmit={async (values) => {
            const platform = await create.mutateAsync(values);
            notify(msg.platforms.created);
            await navigate({ to: "/platforms/$platformId", params: { platformId: platform.platform_id } });
          }}
        />
      </FormCard>
    </FormPage>
  );
}
