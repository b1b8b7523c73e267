// Market families (`totals` of `totals@1h:2.5`) as small numbers: a stream filter's test of a change is an array read.

/** A market key's family: what the stream's `markets` filter names. */
export function familyOf(key: string): string {
  let end = key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 64 /* @ */ || c === 58 /* : */) {
      end = i;
      break;
    }
  }
  return key.slice(0, end).toLowerCase();
}

/**
 * Player props name a player in the family (`player_goals_p1234`), so the families a long-running
 * service meets have no bound: past this many, the numbering starts again, and a new generation
 * tells every remembered number (a book's column, a filter's mask) to be worked out again.
 */
const MAX_FAMILIES = 1 << 16;

const ids = new Map<string, number>();
/** Names by number, this generation. */
const names: string[] = [''];
/** 0 is no family (an unknown market). */
let count = 1;
let gen = 0;

/** The numbering's generation: numbers from another generation mean nothing now. */
export function familyGeneration(): number {
  return gen;
}

/** How many family numbers are in use (masks are this long). */
export function familyCount(): number {
  return count;
}

/** The number of a family name in this generation. */
export function familyIdOfName(family: string): number {
  let id = ids.get(family);
  if (id === undefined) {
    if (count >= MAX_FAMILIES) {
      ids.clear();
      names.length = 1;
      count = 1;
      gen++;
    }
    id = count++;
    ids.set(family, id);
    names[id] = family;
  }
  return id;
}

/** The number of a family in this generation, if it has one (a filter naming a family no market has: none). */
export function knownFamilyId(family: string): number | undefined {
  return ids.get(family);
}

/** The number of a market key's family. */
export function familyIdOfKey(key: string): number {
  return familyIdOfName(familyOf(key));
}

/** The family a number names in this generation ('' for 0 or a number not given out). */
export function familyNameOf(id: number): string {
  return names[id] ?? '';
}
