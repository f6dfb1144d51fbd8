import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireAuth } from "~/auth/session.server";
import { fmt, useT } from "~/i18n";
import { myProfile } from "~/models/member.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireAuth(request, context);
  const profile = await myProfile(accessToken);
  return json({ name: profile.name || profile.id });
}

export default function Main() {
  const { name } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="panel">
      <h1>{fmt(t.main.welcome, { name })}</h1>
      <p>{t.main.fleetSoon}</p>
      <p>
        <Link to="/pvstatus">{t.nav.pvstatus}</Link>
      </p>
    </section>
  );
}
