/**
 * What a failed screen shows (403, 404, 500, 503), in the member's language with a way back (never the
 * raw code a loader threw with, such as "forbidden"). The root
 * boundary puts it on a page of its own; the shell's boundary (routes/_app) keeps it inside the shell, so the
 * navigation stays.
 */
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useT } from "~/i18n";

export function ErrorMessage() {
  const error = useRouteError();
  const t = useT();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const text = status === 404 ? t.notFound : status === 403 ? t.forbidden : status === 503 ? t.unavailable : t.error;
  return (
    <section className="page-message" role="alert" aria-labelledby="error-title">
      <h1 id="error-title">{text.title}</h1>
      <p>{text.body}</p>
      <p>
        <a href="/">{t.notFound.home}</a>
      </p>
    </section>
  );
}
