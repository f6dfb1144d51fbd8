/**
 * "Offline since HH:mm" (Seoul time) while the browser has no network: the screen below keeps the last status it
 * received (the status screens pause their polls while offline). When the network returns the page's data is
 * fetched again at once, without a reload.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { fmt } from "~/i18n";
import { useOfflineT } from "~/i18n/offline";
import { useOfflineSince } from "~/utils/connectivity";
import { seoulYmdHm } from "./status/format";

export function OfflineBanner() {
  const since = useOfflineSince();
  const t = useOfflineT().offline;
  const revalidator = useRevalidator();
  const was = useRef(false);
  useEffect(() => {
    if (since !== null) was.current = true;
    else if (was.current) {
      was.current = false;
      revalidator.revalidate();
    }
  }, [since, revalidator]);
  if (since === null) return null;
  return (
    <div className="alert warn offline-banner" role="status">
      <strong>
        <span aria-hidden="true">⚠ </span>
        {fmt(t.banner, { time: seoulYmdHm(since).slice(-5) })}
      </strong>{" "}
      {t.back}
    </div>
  );
}
