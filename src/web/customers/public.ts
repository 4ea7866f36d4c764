/** What other features may use of the customers feature. */
export { CustomerFilter, CustomerPicker } from "./CustomerFilter";
export { customerOptionsQuery, customerQuery } from "./queries";
export { backToCustomer, customerStat } from "./links";
export { DirectoryIcon, directorySaveConfirm, directorySource } from "./DirectoryMark";
