// Plant names in Korean collation order, kept as ranks so a list of 20,000 plants sorts by comparing numbers.
//
// Intl.Collator("ko", { numeric: true }) is the order (ordering.ts compareNames), but one compare costs about a
// microsecond: sorting 20,000 names took 120–800 ms on this machine (n log n ≈ 300,000 compares), the same names
// by a kept rank 3–5 ms. A NameOrder keeps every name it has seen in collation order; a name it has not seen is
// placed by binary search (log n compares), so a request costs collator compares only for names that are new.
// Names that the collator holds equal (e.g. "01호" and "1호" in numeric order) share a rank.

export type NameCompare = (a: string, b: string) => number;

export class NameOrder {
  /** Distinct names seen, in collation order. */
  #names: string[] = [];
  /** #tied[i]: #names[i] collates equal to #names[i - 1]. */
  #tied: boolean[] = [];
  #rank = new Map<string, number>();

  /**
   * @param compare the collation (ordering.ts compareNames)
   * @param max names kept at most: past it the order starts afresh from the names asked for (renamed plants leave
   *   their old names behind)
   */
  constructor(
    private readonly compare: NameCompare,
    private readonly max = 1_000_000,
  ) {}

  /** Distinct names known. */
  get size(): number {
    return this.#names.length;
  }

  /** The rank of each name of `names` (equal ranks for names that collate equal); learns the new ones first. */
  ranks(names: Iterable<string>): (name: string) => number {
    const asked = [...names];
    let fresh = new Set<string>();
    for (const n of asked) if (!this.#rank.has(n)) fresh.add(n);
    if (fresh.size > 0 && this.#names.length + fresh.size > this.max) {
      this.#names = [];
      this.#tied = [];
      this.#rank.clear();
      fresh = new Set(asked);
    }
    if (fresh.size > 0) this.#learn(fresh);
    return (name) => this.#rank.get(name) ?? -1;
  }

  #learn(fresh: Set<string>): void {
    const cmp = this.compare;
    const added = [...fresh].sort(cmp);
    const old = this.#names;
    // Where each new name goes among the old ones: after every old name that collates at or before it.
    const at = added.map((name) => {
      let lo = 0;
      let hi = old.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cmp(old[mid]!, name) <= 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    });
    const names: string[] = [];
    const tied: boolean[] = [];
    const isNew: boolean[] = [];
    let k = 0;
    for (let i = 0; i <= old.length; i++) {
      while (k < added.length && at[k] === i) {
        names.push(added[k++]!);
        tied.push(false);
        isNew.push(true);
      }
      if (i < old.length) {
        names.push(old[i]!);
        tied.push(this.#tied[i]!);
        isNew.push(false);
      }
    }
    // A tie is decided again only next to a new name; between two old neighbours it stands.
    for (let i = 1; i < names.length; i++) {
      if (isNew[i] || isNew[i - 1]) tied[i] = cmp(names[i - 1]!, names[i]!) === 0;
    }
    if (names.length > 0) tied[0] = false;
    this.#names = names;
    this.#tied = tied;
    let rank = -1;
    for (let i = 0; i < names.length; i++) {
      if (!tied[i]) rank++;
      this.#rank.set(names[i]!, rank);
    }
  }
}

/**
 * A copy of `list` in name order by `order`'s ranks; names that collate equal keep their order in `list` unless
 * `then` decides.
 */
export function sortByName<T>(
  list: readonly T[],
  nameOf: (item: T) => string,
  order: NameOrder,
  then: (a: T, b: T) => number = () => 0,
): T[] {
  const rank = order.ranks(list.map(nameOf));
  const keyed = list.map((item) => ({ item, rank: rank(nameOf(item)) }));
  keyed.sort((a, b) => a.rank - b.rank || then(a.item, b.item));
  return keyed.map((k) => k.item);
}
