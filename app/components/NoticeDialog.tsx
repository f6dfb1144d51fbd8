/**
 * The hydrated form of the notice pop-up: a Radix dialog (focus trap, Escape and a click on the
 * backdrop close it). Loaded lazily by NoticePopup.tsx, so @radix-ui/react-dialog is fetched only
 * when there are notices to show. Closing is recorded by /resources/notice-close (fetcher, `stay`).
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useFetcher } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { useT } from "~/i18n";
import { NoticeCloseFields } from "./NoticeCloseFields";

export default function NoticeDialog({ action, children }: { action: string; children: ReactNode }) {
  const p = useT().notices.popup;
  const fetcher = useFetcher();
  const [open, setOpen] = useState(true);
  const csrf = useAuthenticityToken();

  const close = (week: boolean) => {
    setOpen(false);
    const data = new FormData();
    data.set("stay", "1");
    if (week) data.set("week", "1");
    data.set("csrf", csrf);
    fetcher.submit(data, { method: "post", action });
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : close(false))}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content className="modal-content" aria-describedby={undefined}>
          <Dialog.Title>{p.title}</Dialog.Title>
          {children}
          <form
            id="notice-dialog-form"
            className="notice-popup-actions"
            onSubmit={(e) => {
              e.preventDefault();
              close(new FormData(e.currentTarget).get("week") === "1");
            }}
          >
            <NoticeCloseFields id="notice-dialog-week" />
          </form>
          <Dialog.Close className="modal-x" aria-label={p.close}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
