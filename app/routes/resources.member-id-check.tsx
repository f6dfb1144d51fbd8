/** Resource route for the id duplicate check as the admin types (SPEC §5; GET /api/member/check/id/{id}). */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSettingScreen } from "~/auth/section.server";
import { checkMemberId } from "~/models/members-admin.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "id");
  const id = (new URL(request.url).searchParams.get("id") ?? "").trim().slice(0, 64);
  if (!id) return json({ id, valid: false, exists: false });
  return json(await checkMemberId(accessToken, id), { headers: { "Cache-Control": "no-store" } });
}
