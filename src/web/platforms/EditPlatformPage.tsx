import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink, DetailScaffold, FormSkeleton } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { PlatformForm } from "./PlatformForm";
import { platformQuery, useUpdatePlatform } from "./queries";
import { known, platformStatuses } from "../../domain/enums";

/** /platforms/{platform_id}/edit (docs/decisions.md): the platform form prefilled; on success back to the platform. */
export default function EditPlatformPage() {
  const { platformId } = useParams({ from: "/platforms/$platformId/edit" });
  const navigate = useNavigate();
  const query = useQuery(platformQuery(platformId));
  const update = useUpdatePlatform(platformId);
  useDocumentTitle(query.data ? msg.platforms.editTitle : undefined, query.data?.platform_name, msg.nav.platforms);

  return (
    <FormPage back={<BackLink to="/platforms/$platformId" params={{ platformId }} label={msg.platforms.backToPlatform} />}>
      <DetailScaffold
        query={query}
        skeleton={<FormSkeleton fields={4} />}
        section={msg.nav.platforms}
        errorTitle={msg.platforms.loadOneError}
        notFound={{ title: msg.platforms.notFound, message: msg.platforms.notFoundText }}
        back={{ to: "/platforms", label: msg.platforms.backToList }}
      >
        {(platform) => (
          <FormCard title={msg.platforms.editTitle} subtitle={msg.platforms.editSubtitle}>
            <PlatformForm
              defaults={{ platform_name: platform.platform_name, platform_description: platform.platform_description ?? "", status: known(platformStatuses, platform.status) }}
              submitLabel={msg.platforms.save}
              busyLabel={msg.platforms.saving}
              cancel={(allowLeave) => (
                <Link to="/platforms/$platformId" params={{ platformId }} activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
              )}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                notify(msg.platforms.updated);
                await navigate({ to: "/platforms/$platformId", params: { platformId } });
              }}
            />
          </FormCard>
        )}
      </DetailScaffold>
    </FormPage>
  );
}
