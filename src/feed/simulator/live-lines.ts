// In-play lines that follow the score: each totals or handicap group gets lines around where the score now puts its middle.
import type { BookLayout, LineGroup } from './book.js';
import type { FairMarket, LineOf } from './pricing/fair.js';

/** Lines offered each side of the middle line (at most; a group opened with fewer keeps its width). */
const MAX_HALF_WIDTH = 3;
/** A line is added only while both its sides are at least this likely: it opens priced, not taken off. */
const ADD_BAND = 0.04;
/** Lines a group may add over a game (a bound on the work of a game whose score runs away). */
const MAX_ADDED_PER_GROUP = 40;
/** Steps walked looking for the middle line (a bound on the loop; a group's middle moves a few steps at a time). */
const MAX_WALK = 400;

/**
 * Follows one game's line groups in play. A real book keeps offering totals and handicaps around
 * the score (a blow-out at 62-10 is offered "total 85.5", "handicap -55.5"); the opening lines
 * become one-sided and are taken off. Lines added stay priced for the rest of the game, so a line
 * the score makes likely again reopens, and a line the score decides is withdrawn like any other.
 */
export class LiveLines {
  /** Per group, the lines added so far (not yet decided). */
  private readonly added = new Map<string, Set<number>>();
  private readonly addedCount = new Map<string, number>();

  /** The fair markets of the state with the group's added lines and the new ones the state calls for. */
  follow(markets: readonly FairMarket[], layout: BookLayout): FairMarket[] {
    const out = markets.slice();
    const byGroup = new Map<string, FairMarket[]>();
    for (const m of markets) {
      if (m.line === undefined || m.outcomes.length !== 2) continue;
      const list = byGroup.get(m.line.group);
      if (list === undefined) byGroup.set(m.line.group, [m]);
      else list.push(m);
    }
    for (const [group, list] of byGroup) {
      const shape = layout.groups.get(group);
      if (shape === undefined) continue;
      this.followGroup(group, list, shape, out);
    }
    return out;
  }

  private followGroup(group: string, list: FairMarket[], shape: LineGroup, out: FairMarket[]): void {
    const template = (list[0] as FairMarket).line as LineOf;
    /** The group's lines priced for this state: the engine's, then the ones added earlier. */
    const priced = new Map<number, FairMarket>();
    for (const m of list) priced.set((m.line as LineOf).value, m);
    /** The lines in the book (priced also holds the lines the walk to the middle priced). */
    const have = new Set(priced.keys());
    let added = this.added.get(group);
    if (added !== undefined) {
      for (const line of [...added]) {
        if (priced.has(line)) continue;
        const m = template.at(line);
        // Decided: the book withdraws it now and never again offers it; no need to price it further.
        if (m.decided === true) added.delete(line);
        out.push(m);
        priced.set(line, m);
        have.add(line);
      }
    }
    const middle = middleLine(template, shape, priced);
    const half = Math.min(MAX_HALF_WIDTH, Math.floor((shape.lines.length - 1) / 2));
    const positive = (shape.lines[0] as number) > 0;
    // The middle itself (a line at every unit, as a book's main line moves), and the group's
    // ladder each side of it (its alternative lines keep the spacing it opened with).
    const first = shape.lines[0] as number;
    const onLadder = round(first + shape.step * Math.round((middle - first) / shape.step));
    const wanted = [middle];
    for (let k = -half; k <= half; k++) wanted.push(round(onLadder + k * shape.step));
    for (const line of wanted) {
      if (have.has(line) || (positive && line <= 0)) continue;
      const count = this.addedCount.get(group) ?? 0;
      if (count >= MAX_ADDED_PER_GROUP) return;
      const m = priced.get(line) ?? template.at(line);
      const p = (m.outcomes[0] as { p: number }).p;
      if (m.decided === true || p < ADD_BAND || p > 1 - ADD_BAND) continue;
      out.push(m);
      have.add(line);
      if (added === undefined) this.added.set(group, (added = new Set()));
      added.add(line);
      this.addedCount.set(group, count + 1);
    }
  }
}

/** Lines are written with at most 4 decimals; a ladder built by adding steps must land on them exactly. */
const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * The line (on the group's unit: every point for x.5 lines) whose first outcome is nearest an even
 * chance: walked from the group's line nearest it, towards it, one unit at a time (the chance moves one way along a ladder: down for a
 * total's Over, up for a handicap's home side). Decided lines count as the far end they are.
 */
function middleLine(template: LineOf, shape: LineGroup, priced: Map<number, FairMarket>): number {
  // Lines priced for this state are read as they are; the walk prices the ones between.
  const chance = (line: number): number => {
    let m = priced.get(line);
    if (m === undefined) priced.set(line, (m = template.at(line)));
    return (m.outcomes[0] as { p: number }).p;
  };
  let best = template.value;
  let p = chance(best);
  for (const line of priced.keys()) {
    const q = chance(line);
    if (Math.abs(q - 0.5) < Math.abs(p - 0.5)) {
      best = line;
      p = q;
    }
  }
  // Up the ladder when the chance must fall and falls that way, or must rise and rises that way.
  const dir = p > 0.5 !== template.rises ? 1 : -1;
  const positive = (shape.lines[0] as number) > 0;
  for (let i = 0; i < MAX_WALK; i++) {
    const next = round(best + dir * shape.quantum);
    if (positive && next <= 0) break;
    const q = chance(next);
    // Further from an even chance (a ladder that is flat or ends there): the middle is here.
    if (Math.abs(q - 0.5) > Math.abs(p - 0.5)) break;
    // Crossed an even chance: the nearer of the two lines is the middle.
    if (q > 0.5 !== p > 0.5) return Math.abs(q - 0.5) < Math.abs(p - 0.5) ? next : best;
    best = next;
    p = q;
  }
  return best;
}
