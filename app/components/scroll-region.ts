/**
 * The scroll box of a table that may be wider than the screen (phone width): `<div {...scrollRegion(name)}>`.
 * It is a named region in the tab order, so a keyboard user can reach it and scroll it with the arrow keys even
 * when it holds no link or button (WCAG 2.1.1; axe "scrollable-region-focusable", issue 13.19). Tables that
 * stack on phones (`stack-on-phone`) do not scroll there and keep the plain `.table-wrap` box.
 */
export function scrollRegion(label: string, className?: string) {
  return {
    className: className ? `table-wrap ${className}` : "table-wrap",
    role: "region",
    "aria-label": label,
    tabIndex: 0,
  } as const;
}
