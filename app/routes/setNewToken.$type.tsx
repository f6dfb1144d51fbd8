/** The detail-window session handover (SPEC §2 Detail window) is built with the status screens. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { NotYetAvailable } from "~/components/NotYetAvailable";

export async function loader({ params }: LoaderFunctionArgs) {
  if (params.type !== "newPlantWindow" && params.type !== "newMemberWindow") {
    throw new Response("not found", { status: 404 });
  }
  return null;
}

export default function SetNewToken() {
  return (
    <main className="page-message" id="main">
      <NotYetAvailable screen="Detail window / 상세 창" />
    </main>
  );
}
