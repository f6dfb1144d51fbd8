/**
 * "Offline since HH:mm" (Seoul time) while the browser has no network, or "cannot reach the server since HH:mm" while
 * the network is there but the portal does not answer (a restart, a deploy): the screen below keeps the last status
 * it received. When the network returns the page's data is fetched again at once; when the server returns, the
 * screen's next poll (which keeps trying) ends the outage. Without a reload either way.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { fmt } from "~/i18n";
import { useOfflineT } from "~/i18n/offline";
import { useOfflineSince, useServerUnreachableSince } from "~/utils/connectivity";
import { seoulYmdHm } from "./status/format";

export function OfflineBanner() {
  const offlineSince = useOfflineSince();
  const unreachableSince = useServerUnreachableSince();
  const t = useOfflineT().offline;
  const revalidator = useRevalidator();
  const was = useRef(false);
  useEffect(() => {
    if (offlineSince !== null) was.current = true;
    else if (was.current) {
      was.current = false;
      revalidator.revalidate();
    }
  }, [offlineSince, revalidator]);
  if (offlineSince === null && unreachableSince === null) return null;
  const [text, since, after] =
    offlineSince !== null ? [t.banner, offlineSince, t.back] : [t.server, unreachableSince!, t.retrying];
  return (
    <div className="alert warn offline-banner" role="status">
      <strong>
        <span aria-hidden="true">⚠ </span>
        {fmt(text, { time: seoulYmdHm(since).slice(-5) })}
      </strong>{" "}
      {after}
    </div>
  );
}
