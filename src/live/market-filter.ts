// A read's market filter (`markets=1x2,totals`): the families asked for, normalised, and which markets of a book they keep.
import { createHash } from 'node:crypto';
import type { MarketBook } from './market-book.js';
import { familyOf } from './market-families.js';

/**
 * One filter per distinct set of families: the value is normalised (lower case, sorted, each
 * family once), so `TOTALS,1x2,totals` and `1x2,totals` are the same variant, with the same cached
 * payload and the same ETag.
 */
export class MarketFilter {
  /** The families, sorted and distinct. */
  readonly families: readonly string[];
  /** The normalised value (`1x2,totals`). */
  readonly value: string;
  /**
   * A short digest of the value: what cache keys and tags carry, so a filter of a hundred long
   * family names costs the cache no more than one of `1x2`.
   */
  readonly digest: string;
  private readonly set: ReadonlySet<string>;

  constructor(families: Iterable<string>) {
    this.set = new Set([...families].map((f) => f.toLowerCase()));
    this.families = [...this.set].sort();
    this.value = this.families.join(',');
    this.digest = createHash('sha1').update(this.value).digest('base64url').slice(0, 16);
  }

  /** Whether a family (lower case) is asked for. */
  hasFamily(family: string): boolean {
    return this.set.has(family);
  }

  /** Whether the market of this key (`totals@1h:2.5`) is kept. */
  keeps(key: string): boolean {
    return this.set.has(familyOf(key));
  }

  /** Which markets of a book are kept, by index (a payload build's test). */
  keepsMarket(book: MarketBook): (i: number) => boolean {
    return (i) => this.set.has(familyOf(book.key(i)));
  }
}

/** Whether any market of a book (withdrawn ones included) is of this family. */
export function bookHasFamily(book: MarketBook, family: string): boolean {
  for (let i = 0; i < book.marketCount; i++) if (familyOf(book.key(i)) === family) return true;
  return false;
}
