import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { known, platformStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createPlatformSchema, type Platform } from "../../domain/platforms";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { platformFields, platformRecord } from "./PlatformForm";
import { platformQuery, useUpdatePlatform } from "./queries";

/** /platforms/{platform_id}/edit (docs/decisions.md): the platform form prefilled; on success back to the platform. */
/** The form's values for a platform (also a stale save's current record on Reload). */
const platformValues = (platform: Platform) => ({
  platform_name: platform.platform_name,
  platform_description: platform.platform_description ?? "",
  status: known(platformStatuses, platform.status),
});

export default function EditPlatformPage() {
  const { platformId } = useParams({ from: "/platforms/$platformId/edit" });
  const query = useQuery(platformQuery(platformId));
  const update = useUpdatePlatform(platformId);
  const back = { to: "/platforms/$platformId", params: { platformId } };
  return (
    <FormScreen
      section={msg.nav.platforms}
      title={msg.platforms.editTitle}
      subtitle={msg.platforms.editSubtitle}
      back={{ ...back, label: msg.platforms.backToPlatform }}
      load={{ query, name: (p) => p.platform_name, kind: platformRecord }}
    >
      {({ record: platform, cancel, finish }) => (
        <EntityForm
          schema={createPlatformSchema}
          fields={platformFields}
          defaults={platformValues(platform)}
          version={{ updatedAt: platform.updated_at, reset: (current) => platformValues(current as never) }}
          submitLabel={msg.platforms.save}
          busyLabel={msg.platforms.saving}
          cancel={cancel}
          onSubmit={async (values, { ifMatch }) => {
            await update.mutateAsync({ ...values, ifMatch });
            notify(msg.platforms.updated);
            await finish(back);
          }}
        />
      )}
    </FormScreen>
  );
}
