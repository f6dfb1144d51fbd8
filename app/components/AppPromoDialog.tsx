/**
 * The hydrated app promotion pop-up: a Radix dialog (SPEC §2 Modal: rendered into the modal root, open/close,
 * the backdrop closes it; focus trap and Escape). "Hide for 1 week" records NewAppOpenPop through
 * /resources/app-promo (fetcher, `stay`); the other button only closes.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { useAppPromoT } from "~/i18n/app-promo";
import { APP_PROMO_ACTION, AppPromoCodes, type AppPromoData } from "./AppPromo";

export default function AppPromoDialog({ promo }: { promo: AppPromoData }) {
  const t = useAppPromoT().appPromo;
  const fetcher = useFetcher();
  const [open, setOpen] = useState(true);
  const csrf = useAuthenticityToken();

  const hideForWeek = () => {
    setOpen(false);
    const data = new FormData();
    data.set("stay", "1");
    data.set("week", "1");
    data.set("csrf", csrf);
    fetcher.submit(data, { method: "post", action: APP_PROMO_ACTION });
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" data-testid="app-promo-backdrop" />
        <Dialog.Content className="modal-content app-promo-dialog">
          <Dialog.Title>{t.title}</Dialog.Title>
          <Dialog.Description>{t.body}</Dialog.Description>
          <AppPromoCodes promo={promo} />
          <div className="app-promo-actions">
            <button type="button" className="secondary" onClick={hideForWeek}>
              {t.week}
            </button>
            <Dialog.Close asChild>
              <button type="button">{t.close}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
