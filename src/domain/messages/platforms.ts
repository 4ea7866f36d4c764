/**
 * The platform screens.
 */
import { recordTexts } from "./helpers";

export const platformsMsg = {
  ...recordTexts("Platform", "Platforms"),
  subtitle: "Where prompts are published",
  addSubtitle: "A platform receives the prompts assigned to it.",
  editSubtitle: "Update platform information and settings",
  deleted: "Platform deleted successfully!",
  notFoundText: "The platform you're looking for doesn't exist or has been deleted.",
  nameRequired: "Platform name is required",
  descriptionInvalid: "Description must be text",
  statusInvalid: "Status must be Active, Inactive or Draft",
  choosePlatform: "Please select a platform",
  notActive: "Only active platforms can be given prompts",
  noPrompts: "No prompts assigned",
  noPromptsText: "Assign this platform from a prompt's page.",
  deleteConfirm: (name: string) => `Are you sure you want to delete "${name}"? This action cannot be undone.`,
  deleteConfirmCascade: (name: string, n: number) =>
    `Are you sure you want to delete "${name}"? It is assigned to ${n} ${n === 1 ? "prompt" : "prompts"}; ${n === 1 ? "that assignment" : "those assignments"} will be removed too. This action cannot be undone.`,
  deleteBlocked: (n: number) =>
    `This platform is assigned to ${n} ${n === 1 ? "prompt" : "prompts"}. Confirm deleting its assignments too, or unassign them first.`,
  needsReview: "Changes need review",
  needsReviewHint: "Changes to prompts assigned here wait for another operator's approval (when review is on).",
  needsReviewFilter: "Review",
  anyReview: "Any Review",
  reviewed: "Reviewed",
  notReviewed: "Not reviewed",
  providedVariables: "Provided variables",
  providedVariablesHint: "The {{variables}} this platform fills in, comma-separated. Leave empty to declare none.",
  noDeclaredVariables: "Declares no variables",
  needsReviewYes: "Yes",
  needsReviewNo: "No",
  reviewedTitle: "Changes to prompts assigned here need review",
  variableInvalid: (name: string) =>
    `${name ? `"${name}" is not a variable name` : "A variable name is at most 100 characters"}: letters, digits, _ . and -, starting with a letter or _`,
  tooManyVariables: "At most 100 variables",
  providedVariablesInvalid: "Provided variables must be a list of names",
} as const;
