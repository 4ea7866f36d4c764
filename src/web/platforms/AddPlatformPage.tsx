import { msg } from "../../domain/messages";
import { createPlatformSchema } from "../../domain/platforms";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { platformDefaults, platformFields } from "./PlatformForm";
import { useCreatePlatform } from "./queries";

/** /platforms/add (SPEC.md §2 links it; docs/decisions.md): the platform form; on success opens the new platform. */
export default function AddPlatformPage() {
  const create = useCreatePlatform();
  return (
    <FormScreen
      section={msg.nav.platforms}
      title={msg.platforms.addTitle}
      subtitle={msg.platforms.addSubtitle}
      back={{ to: "/platforms", label: msg.platforms.backToList }}
    >
      {({ cancel, finish }) => (
        <EntityForm
          schema={createPlatformSchema}
          fields={platformFields}
          defaults={platformDefaults}
          submitLabel={msg.platforms.create}
          busyLabel={msg.platforms.creating}
          cancel={cancel}
          onSubmit={async (values) => {
            const platform = await create.mutateAsync(values);
            notify(msg.platforms.created);
            await finish({ to: "/platforms/$platformId", params: { platformId: platform.platform_id } });
          }}
        />
      )}
    </FormScreen>
  );
}
