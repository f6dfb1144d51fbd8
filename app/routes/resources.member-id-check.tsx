/** Resource route for the id duplicate check as the admin types (SPEC §5; GET /api/member/check/id/{id}). */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireSettingScreen } from "~/auth/section.server";
import { checkMemberId } from "~/models/members-admin.server";
import { parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";

const Search = z.object({ id: searchParam.text(64) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "id");
  const { id } = parseSearch(Search, request);
  if (!id) return json({ id, valid: false, exists: false });
  return json(await checkMemberId(accessToken, id), { headers: { "Cache-Control": "no-store" } });
}
