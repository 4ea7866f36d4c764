import { deliveryMsg } from "../../domain/messages/tokens";
import { platformOptionSchema, platformOptionsSchema } from "../../domain/platforms";
import { optionsPicker } from "../components/EntityPicker";
import { platformKeys } from "./queries";

/**
 * A platform picker over `/api/platforms/options` (every platform by name, paged as it scrolls),
 * for the API token form's delivery platform (docs/prompt-review.md, "Read API for platforms").
 */
export const PlatformPicker = optionsPicker({
  path: "/platforms/options",
  page: platformOptionsSchema,
  one: platformOptionSchema,
  option: (p) => ({ id: p.platform_id, label: p.platform_name }),
  root: platformKeys.all,
  labels: { label: deliveryMsg.platformLabel, placeholder: deliveryMsg.platformPlaceholder },
}).Picker;
