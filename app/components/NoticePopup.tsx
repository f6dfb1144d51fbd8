/**
 * The notices shown after login (issue 5; SPEC §2 Modal). Server-rendered as a plain panel with a
 * form, so it works without JS; once hydrated it becomes a Radix dialog (NoticeDialog.tsx, focus
 * trap, Escape and a click on the backdrop close it). The dialog and Radix are a chunk of their own,
 * fetched only when there are notices; until it arrives the panel stays and works as it does without
 * JS. Either way closing is recorded by /resources/notice-close.
 */
import { Form, useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useT } from "~/i18n";
import { NoticeCloseFields } from "./NoticeCloseFields";

export interface PopupNotice {
  seq: number;
  content: string;
  date: string;
}

const ACTION = "/resources/notice-close";

const NoticeDialog = lazy(() => import("./NoticeDialog"));

function NoticeItems({ notices }: { notices: PopupNotice[] }) {
  return (
    <ul className="notice-list popup">
      {notices.map((n) => (
        <li key={n.seq}>
          <div className="notice-body">
            <p className="notice-content">{n.content}</p>
            <p className="notice-meta">{n.date}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function NoticePanel({ notices }: { notices: PopupNotice[] }) {
  const p = useT().notices.popup;
  const location = useLocation();
  return (
    <section className="notice-popup panel wide" aria-labelledby="notice-popup-title">
      <h2 id="notice-popup-title">{p.title}</h2>
      <NoticeItems notices={notices} />
      <Form method="post" action={ACTION} className="notice-popup-actions">
        <AuthenticityTokenInput />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <NoticeCloseFields id="notice-popup-week" />
      </Form>
    </section>
  );
}

export function NoticePopup({ notices }: { notices: PopupNotice[] }) {
  const hydrated = useHydrated();
  if (!notices.length) return null;
  if (!hydrated) return <NoticePanel notices={notices} />;
  return (
    <Suspense fallback={<NoticePanel notices={notices} />}>
      <NoticeDialog action={ACTION}>
        <NoticeItems notices={notices} />
      </NoticeDialog>
    </Suspense>
  );
}
