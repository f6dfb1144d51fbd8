// Locality tree of the watch screen (SPEC §2): localities sorted alphabetically, plants without a
// locality in a 'site unspecified' bucket that is always last.

const collator = new Intl.Collator("ko", { numeric: true });

/** Trimmed locality, or null for the 'site unspecified' bucket. */
export function normalizeLocality(locality: string | null | undefined): string | null {
  const trimmed = (locality ?? "").trim();
  return trimmed === "" ? null : trimmed;
}

/** Alphabetical ('ko' collation) with the unspecified bucket (null/blank) last. */
export function compareLocalities(a: string | null | undefined, b: string | null | undefined): number {
  const na = normalizeLocality(a);
  const nb = normalizeLocality(b);
  if (na === null || nb === null) return na === nb ? 0 : na === null ? 1 : -1;
  return collator.compare(na, nb);
}

/** Distinct localities, sorted, unspecified (null) last. */
export function sortLocalities(localities: Iterable<string | null | undefined>): (string | null)[] {
  const distinct = new Set<string | null>();
  for (const l of localities) distinct.add(normalizeLocality(l));
  return [...distinct].sort(compareLocalities);
}

export interface LocalityGroup<T> {
  /** null is the 'site unspecified' bucket. */
  locality: string | null;
  plants: T[];
}

/** Groups plants by locality in sorted order; plants keep their input order within a group. */
export function groupPlantsByLocality<T>(
  plants: readonly T[],
  localityOf: (plant: T) => string | null | undefined,
): LocalityGroup<T>[] {
  const groups = new Map<string | null, T[]>();
  for (const plant of plants) {
    const key = normalizeLocality(localityOf(plant));
    const list = groups.get(key);
    if (list) list.push(plant);
    else groups.set(key, [plant]);
  }
  return sortLocalities(groups.keys()).map((locality) => ({ locality, plants: groups.get(locality)! }));
}
