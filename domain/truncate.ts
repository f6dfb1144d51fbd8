// Plant-name truncation for the small plant cards (SPEC §2, §9).

/** How many characters of a plant name each card keeps. */
export const CARD_NAME_LENGTH = {
  mediumLine: 17,
  bar: 12,
  smallGrid: 9,
} as const;
export type CardWithShortName = keyof typeof CARD_NAME_LENGTH;

/** One character (U+2026) rather than '...', so the cut name stays as short as the card allows. */
export const ELLIPSIS = "…";

/**
 * Keeps the first `max` characters and appends '…' only when something was cut.
 * Counts Unicode code points after NFC normalisation, so a Hangul syllable is one character even
 * when the name arrived decomposed (NFD, e.g. from macOS file names) and emoji are never split
 * into broken surrogate halves. Trailing spaces before the ellipsis are dropped.
 */
export function truncateName(name: string | null | undefined, max: number): string {
  const chars = Array.from((name ?? "").normalize("NFC"));
  if (chars.length <= max) return chars.join("");
  return chars.slice(0, Math.max(0, max)).join("").trimEnd() + ELLIPSIS;
}

export function truncateCardName(name: string | null | undefined, card: CardWithShortName): string {
  return truncateName(name, CARD_NAME_LENGTH[card]);
}
