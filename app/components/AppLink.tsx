/**
 * The portal's link: a plain `<a href>` in the markup, with no router hooks of its own. Pages such as
 * the plant status screen draw thirty-odd links and are rendered for every wallboard; React Router's
 * `<Link>` resolved each one against the route tree on the server (useHref, resolveTo, a URL per link).
 * With JavaScript, one click listener for the whole document (useLinkNavigation, installed in root.tsx)
 * turns a plain click on such a link into a client-side navigation, honouring `replace` and
 * `preventScrollReset` as `<Link>` does; without JavaScript it is an ordinary link. `prefetch="intent"`
 * (the shell's navigation) fetches the target's data and code when the pointer or focus rests on the link.
 */
import { useEffect, useState, type AnchorHTMLAttributes } from "react";
import { PrefetchPageLinks, useNavigate } from "@remix-run/react";

export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /**
   * Where to go, resolved by the browser against the page's URL like any href: an absolute path with its
   * query (`/pvstatus?view=gh`), or `?…` for another view of the page itself.
   */
  to: string;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Keep the scroll position (a control that changes the view in place). */
  preventScrollReset?: boolean;
  /** "intent": prefetch the target page when the link is hovered, focused or touched. */
  prefetch?: "intent";
};

export function AppLink({ to, replace, preventScrollReset, prefetch, ...rest }: AppLinkProps) {
  const props = {
    href: to,
    "data-nav": replace ? "replace" : "push",
    "data-keep-scroll": preventScrollReset ? "" : undefined,
    // As <Link> marks its anchors: Remix's route discovery (v3_lazyRouteDiscovery) fetches the routes of the links on
    // the page, so a navigation or a prefetch through one needs no /__manifest request of its own.
    "data-discover": "true",
    ...rest,
  };
  return prefetch === "intent" ? <PrefetchingAnchor page={to} {...props} /> : <a {...props} />;
}

function PrefetchingAnchor({ page, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { page: string }) {
  const [intent, setIntent] = useState(false);
  const also =
    <E,>(own: ((event: E) => void) | undefined) =>
    (event: E) => {
      own?.(event);
      setIntent(true);
    };
  return (
    <>
      <a
        {...props}
        onMouseEnter={also(props.onMouseEnter)}
        onFocus={also(props.onFocus)}
        onTouchStart={also(props.onTouchStart)}
      />
      {intent ? <PrefetchPageLinks page={page} /> : null}
    </>
  );
}

/** What a click on an AppLink should do, or null when the browser should handle it itself. */
export function linkNavigation(
  event: MouseEvent,
  origin: string,
  here: string,
): { to: string; replace: boolean; preventScrollReset: boolean } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
    return null;
  const link = event.target instanceof Element ? event.target.closest("a[data-nav]") : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download"))
    return null;
  const url = new URL(link.href);
  if (url.origin !== origin) return null;
  const to = url.pathname + url.search + url.hash;
  // As <Link>: a link to the page already shown replaces its entry rather than adding a duplicate.
  return {
    to,
    replace: link.dataset.nav === "replace" || to === here,
    preventScrollReset: link.hasAttribute("data-keep-scroll"),
  };
}

/** Client-side navigation for every AppLink on the page: one listener on the document. */
export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      const { origin, pathname, search, hash } = window.location;
      const nav = linkNavigation(event, origin, pathname + search + hash);
      if (!nav) return;
      event.preventDefault();
      navigate(nav.to, { replace: nav.replace, preventScrollReset: nav.preventScrollReset });
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
