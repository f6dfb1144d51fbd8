/**
 * /pvstatus/detail/{uid} — a short link to a plant's detail window (SPEC §2: the sibling 'detail' host at
 * /setNewToken/newPlantWindow/?name&uid&theme). The map's plant list links here so that a thousand plants
 * do not each carry a long encoded URL; the API checks the member may see the plant (404 otherwise).
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { detailWindowHref } from "~/components/status/DetailLink";
import { requireSection } from "~/auth/section.server";
import { ApiFailure } from "~/models/api.server";
import { plantCardFor } from "~/models/pvstatus.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "pvstatus");
  const uid = params.uid ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) throw new Response("not found", { status: 404 });
  try {
    const card = await plantCardFor(accessToken, uid);
    // Through the handover route, which asks the API for a one-time code for this plant.
    return redirect(detailWindowHref("plant", uid, card.name));
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 404 || error.status === 400))
      throw new Response("not found", { status: 404 });
    throw error;
  }
}
