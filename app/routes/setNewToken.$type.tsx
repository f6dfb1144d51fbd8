/**
 * Session handover of the detail window (SPEC §2 Detail window, §8): on the detail host, the plant token
 * (newPlantWindow) or member token (newMemberWindow) is requested for `uid` with the one-time `code` the
 * main window obtained (resources/detail-window). 200 with all three tokens → the three session cookies
 * are stored on the detail host and the window goes to its root, which keeps a copy in session storage
 * `detail_token`. 204 → the Korean alert, then the window closes (without JS: a page saying so).
 * A failed request is logged only (SPEC §8).
 */
import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { authCookieHeaders, isHttps, withCookies } from "~/auth/cookies.server";
import { isDetailHost } from "~/utils/detail-host.server";
import { useT } from "~/i18n";
import { detailToken } from "~/models/detail.server";
import { themeCookie } from "~/utils/preferences.server";
import { parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";

const KINDS = { newPlantWindow: "plant", newMemberWindow: "member" } as const;

/** A missing or malformed uid or code is refused like a spent code (the denied page), never a 500. */
const Query = z.object({
  name: searchParam.text(100),
  uid: searchParam.text(64),
  theme: searchParam.oneOf(["dark", "default"], "default"),
  code: searchParam.text(128),
});

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.name || "detail" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const kind = KINDS[params.type as keyof typeof KINDS];
  if (!kind) throw new Response("not found", { status: 404 });
  // Only the detail host takes a scoped session: on the main host it would replace the member's own.
  if (!isDetailHost(request)) throw new Response("forbidden", { status: 403 });
  const { name, uid, theme, code } = parseSearch(Query, request);
  if (!uid || !code) return json({ state: "denied" as const, name }, { status: 403, headers: NO_STORE });

  const answer = await detailToken(kind, uid, code, context.clientIp);
  if (answer.status === 200) {
    const { accessToken, refreshToken, sessionId } = answer.tokens;
    if (accessToken && refreshToken && sessionId) {
      const headers = withCookies([...authCookieHeaders(answer.tokens, isHttps(request.url)), themeCookie(theme)], NO_STORE);
      return redirect("/", { headers });
    }
    return json({ state: "denied" as const, name }, { status: 403, headers: NO_STORE });
  }
  if (answer.status === 204) return json({ state: "denied" as const, name }, { status: 403, headers: NO_STORE });
  console.error("detail window: token request failed:", answer.error);
  return json({ state: "failed" as const, name }, { status: 502, headers: NO_STORE });
}

export default function SetNewToken() {
  const { state } = useLoaderData<typeof loader>();
  const t = useT();
  useEffect(() => {
    if (state !== "denied") return;
    // SPEC §2: 204 → the alert (in Korean), and the window closes.
    window.alert(t.detail.failed);
    window.close();
  }, [state, t]);
  return (
    <main className="page-message detail-message" id="main">
      <h1>{t.detail.failedTitle}</h1>
      <p role="alert" className="alert error">
        {state === "denied" ? t.detail.failed : t.detail.requestFailed}
      </p>
      <p>{t.detail.closeHint}</p>
    </main>
  );
}
