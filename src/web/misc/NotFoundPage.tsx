import { Link } from "@tanstack/react-router";
import { appMsg } from "../../domain/messages/common";
import { useDocumentTitle } from "../components/ui";

/** Any route the console does not know. */
export function NotFoundPage() {
  useDocumentTitle(appMsg.notFoundTitle);
  return (
    <div className="flex flex-col items-center py-20 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="mt-4 text-2xl font-semibold">{appMsg.notFoundTitle}</h1>
      <p className="mt-2 text-base-content/70">{appMsg.notFoundText}</p>
      <Link to="/" className="btn btn-primary mt-6">
        {appMsg.backHome}
      </Link>
    </div>
  );
}
