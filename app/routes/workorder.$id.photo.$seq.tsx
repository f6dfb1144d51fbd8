/**
 * /workorder/<id>/photo/<seq> — a work order photo's bytes from the API (which checks that the member sees its plant),
 * passed through with the type the API sniffed and nosniff, so only an image is ever served.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireSection } from "~/auth/section.server";
import { ApiFailure } from "~/models/api.server";
import { workOrderPhotoFile } from "~/models/workorder.server";

const Params = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
  seq: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "workorder");
  const p = Params.safeParse(params);
  if (!p.success) throw new Response("not found", { status: 404 });
  try {
    const file = await workOrderPhotoFile(accessToken, p.data.id, p.data.seq);
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "X-Content-Type-Options": "nosniff",
        "Content-Disposition": "inline",
        "Cache-Control": "private, max-age=3600",
      },
    });
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500)
      throw new Response(error.body.message, { status: error.status });
    throw error;
  }
}
