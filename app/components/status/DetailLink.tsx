/**
 * A link that opens a plant's or member's detail in a new window (SPEC §2 Detail window). Without JS it
 * is a target=_blank link (a new tab) to the main host's resources/detail-window, which redirects to the
 * detail host; with JS it opens a popup window of its own (one per plant/member).
 */
import type { MouseEvent, ReactNode } from "react";
import { fmt, useT } from "~/i18n";

export function detailWindowHref(kind: "plant" | "member", uid: string, name: string): string {
  return `/resources/detail-window?${new URLSearchParams({ kind, uid, name }).toString()}`;
}

export function DetailLink(props: {
  kind: "plant" | "member";
  uid: string;
  name: string;
  children?: ReactNode;
  className?: string;
}) {
  const t = useT();
  const href = detailWindowHref(props.kind, props.uid, props.name);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // Let modified clicks (new tab, new window) behave as the user asked.
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    window.open(href, `detail_${props.kind}_${props.uid}`.replace(/[^\w]/g, "_"), "popup,width=1100,height=820");
  };
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      onClick={onClick}
      className={props.className}
      title={fmt(t.detail.openNew, { name: props.name })}
    >
      {props.children ?? props.name}
      <span className="visually-hidden">{` (${t.detail.newWindow})`}</span>
    </a>
  );
}
