/**
 * A submitted form that may carry one file (a member's logo, a work order's photo): a plain form as it is, a
 * multipart one read in memory keeping only the named file field, refused as "too_large" the moment that file passes
 * `maxBytes` (nothing more is read).
 */
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";

export async function readUploadForm(
  request: Request,
  file: { field: string; maxBytes: number },
): Promise<FormData | "too_large"> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return request.formData();
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({
        maxPartSize: file.maxBytes,
        filter: ({ name, filename }) => typeof filename !== "string" || name === file.field,
      }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return "too_large";
    throw error;
  }
}
