/** What other features may use of comments. */
export { CommentRowActions } from "./CommentRowActions";
