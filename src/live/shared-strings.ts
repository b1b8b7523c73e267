// One table of the strings every market book uses (keys, names, codes, labels), counted by book so unused ones go.

/**
 * Why: a 1,000-market book has ~2,900 distinct strings. Held as an array of string pointers per
 * book, 11,000 books made ~250 MB of the V8 heap, every pointer of which a full collection must
 * visit: each one took ~100 ms and slowed the live tick it fell in. Books hold 4-byte indexes into
 * this table instead (typed arrays, which the collector does not scan). A string is kept while
 * any book uses it: a book acquires its strings once each when its columns are built and releases
 * them when they are replaced or the book is collected.
 */
export class SharedStrings {
  private readonly strings: Array<string | undefined> = [];
  private readonly index = new Map<string, number>();
  private refs = new Uint32Array(1024);
  private readonly free: number[] = [];

  /** Strings in use. */
  get size(): number {
    return this.index.size;
  }

  get(i: number): string {
    return this.strings[i] as string;
  }

  /** The index of `s`, counting one more user. */
  acquire(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.free.pop() ?? this.strings.length;
      if (i >= this.refs.length) {
        const grown = new Uint32Array(this.refs.length * 2);
        grown.set(this.refs);
        this.refs = grown;
      }
      this.strings[i] = s;
      this.index.set(s, i);
    }
    this.refs[i] = (this.refs[i] as number) + 1;
    return i;
  }

  /** One user fewer of string i; the last one frees its slot. */
  release(i: number): void {
    const n = this.refs[i] as number;
    if (n === 0) return;
    this.refs[i] = n - 1;
    if (n > 1) return;
    this.index.delete(this.strings[i] as string);
    this.strings[i] = undefined;
    this.free.push(i);
  }
}

/** The table of the process: every market book shares it. */
export const sharedStrings = new SharedStrings();
