/** What other features may use of the platforms feature. */
export { PlatformPicker } from "./PlatformPicker";
