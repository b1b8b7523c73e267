// Who wins a "finish in the top N" market ranked by a value that can tie, and the dead-heat share of each.

export interface PlaceShare {
  /** Position of the selection in the values given. */
  index: number;
  /** Share of the stake paid at full odds: 1, or places left ÷ tied when a tie straddles the cut-off. */
  factor: number;
}

/**
 * The winners of a `places`-place market (higher value ranks first). Those strictly inside win in
 * full; the group tied at the last place shares the places left: a top scorer market (1 place)
 * with three players level pays each a third, a top-3 market with one leader and three tied for
 * second pays those three two thirds each.
 */
export function placeShares(values: readonly number[], places: number): PlaceShare[] {
  if (places <= 0 || values.length === 0) return [];
  if (places >= values.length) return values.map((_, index) => ({ index, factor: 1 }));
  const order = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
  const cut = values[order[places - 1]!]!;
  const out: PlaceShare[] = [];
  let above = 0;
  const tied: number[] = [];
  for (const i of order) {
    const v = values[i]!;
    if (v > cut) {
      out.push({ index: i, factor: 1 });
      above++;
    } else if (v === cut) tied.push(i);
    else break;
  }
  const left = places - above;
  const factor = left >= tied.length ? 1 : left / tied.length;
  for (const index of tied) out.push({ index, factor });
  return out;
}

/**
 * Adds each selection's dead-heat share to `acc` (Monte Carlo of a race: shares sum to `places`).
 * Same rule as placeShares, without sorting or allocating: a pass per distinct value above the cut.
 */
export function addPlaceShares(values: ArrayLike<number>, places: number, acc: Float64Array): void {
  const n = values.length;
  if (places <= 0 || n === 0) return;
  let above = 0;
  let bound = Infinity;
  for (;;) {
    let best = -Infinity;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (v >= bound) continue;
      if (v > best) {
        best = v;
        count = 1;
      } else if (v === best) count++;
    }
    if (count === 0) {
      bound = -Infinity;
      break;
    }
    if (above + count >= places) {
      const factor = (places - above) / count;
      for (let i = 0; i < n; i++) if (values[i] === best) acc[i] = acc[i]! + factor;
      break;
    }
    above += count;
    bound = best;
  }
  for (let i = 0; i < n; i++) if (values[i]! >= bound) acc[i] = acc[i]! + 1;
}
