// The portal explorer's sample data: a few event ids and a priced selection from this node's read model.
import type { LiveEvent } from '../live/live-event.js';
import type { ReadModel } from '../live/read-model.js';
import type { ExplorerSamples, SampleSelection } from '../portal/ports.js';

const SAMPLE_EVENTS = 3;

/** The first open market's first unlocked selection with a price, if any. */
function pricedSelection(le: LiveEvent): SampleSelection | null {
  const book = le.book;
  for (let i = 0; i < book.marketCount; i++) {
    if (book.isWithdrawn(i)) continue;
    const [from, to] = book.outcomeRange(i);
    for (let o = from; o < to; o++) {
      const odds = book.odds(o);
      if (book.isLocked(o) || !(odds > 1)) continue;
      return { event_id: le.event.id, market_id: book.marketId(i), selection_id: book.selectionId(o), odds };
    }
  }
  return null;
}

/** Reads the read model at each call (live events first, as the event list orders them): a few ids, no copies. */
export function explorerSamples(readModel: ReadModel): () => ExplorerSamples {
  return () => {
    const eventIds: string[] = [];
    let selection: SampleSelection | null = null;
    for (const le of readModel.order()) {
      if (eventIds.length < SAMPLE_EVENTS) eventIds.push(le.event.id);
      selection ??= pricedSelection(le);
      if (eventIds.length >= SAMPLE_EVENTS && selection !== null) break;
    }
    // The selection's event leads, so the batch and the bet check name the same event.
    if (selection !== null && !eventIds.includes(selection.event_id)) eventIds.unshift(selection.event_id);
    return { eventIds: eventIds.slice(0, SAMPLE_EVENTS), selection };
  };
}
