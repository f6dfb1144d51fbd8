/**
 * What a failed screen shows (400, 403, 404, 500, 503), in the member's language with a way back (never the
 * raw code a loader threw with, such as "forbidden"). The root
 * boundary puts it on a page of its own; the shell's boundary (routes/_app) keeps it inside the shell, so the
 * navigation stays. When the failure is an outage (no server answered, or 502/503/504) the page asks again every
 * RETRY_MS by itself, so a wallboard left on it comes back without anyone pressing reload.
 */
import { isRouteErrorResponse, useRevalidator, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { useT } from "~/i18n";
import { isOutage } from "~/utils/keep-last-good";

export const RETRY_MS = 10_000;

export function ErrorMessage() {
  const error = useRouteError();
  const t = useT();
  const revalidator = useRevalidator();
  const outage = isOutage(error);
  useEffect(() => {
    if (!outage) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, RETRY_MS);
    return () => window.clearInterval(timer);
  }, [outage, revalidator]);
  const status = isRouteErrorResponse(error) ? error.status : outage ? 503 : 500;
  const text =
    status === 404
      ? t.notFound
      : status === 403
        ? t.forbidden
        : status === 400
          ? t.badRequest
          : status === 503
            ? t.unavailable
            : t.error;
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
