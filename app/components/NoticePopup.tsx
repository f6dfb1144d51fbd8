/**
 * The notices shown after login (issue 5; SPEC §2 Modal). Server-rendered as a plain panel with a
 * form, so it works without JS; once hydrated it becomes a Radix dialog (focus trap, Escape and a
 * click on the backdrop close it). Either way closing is recorded by /resources/notice-close.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { Form, useFetcher, useLocation } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput, useAuthenticityToken } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useT } from "~/i18n";

export interface PopupNotice {
  seq: number;
  content: string;
  date: string;
}

const ACTION = "/resources/notice-close";

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

export function NoticePopup({ notices }: { notices: PopupNotice[] }) {
  const t = useT();
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher();
  const [open, setOpen] = useState(true);
  const csrf = useAuthenticityToken();
  if (!notices.length) return null;
  const p = t.notices.popup;

  if (!hydrated) {
    return (
      <section className="notice-popup panel wide" aria-labelledby="notice-popup-title">
        <h2 id="notice-popup-title">{p.title}</h2>
        <NoticeItems notices={notices} />
        <Form method="post" action={ACTION} className="notice-popup-actions">
          <AuthenticityTokenInput />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <div className="check">
            <input type="checkbox" id="notice-popup-week" name="week" value="1" />
            <label htmlFor="notice-popup-week">{p.week}</label>
          </div>
          <button type="submit">{p.close}</button>
        </Form>
      </section>
    );
  }

  const close = (week: boolean) => {
    setOpen(false);
    const data = new FormData();
    data.set("stay", "1");
    if (week) data.set("week", "1");
    data.set("csrf", csrf);
    fetcher.submit(data, { method: "post", action: ACTION });
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : close(false))}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content className="modal-content" aria-describedby={undefined}>
          <Dialog.Title>{p.title}</Dialog.Title>
          <NoticeItems notices={notices} />
          <form
            id="notice-dialog-form"
            className="notice-popup-actions"
            onSubmit={(e) => {
              e.preventDefault();
              close(new FormData(e.currentTarget).get("week") === "1");
            }}
          >
            <div className="check">
              <input type="checkbox" id="notice-dialog-week" name="week" value="1" />
              <label htmlFor="notice-dialog-week">{p.week}</label>
            </div>
            <button type="submit">{p.close}</button>
          </form>
          <Dialog.Close className="modal-x" aria-label={p.close}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
