// The current state of the events (and outright tournaments) a stream matches, as `"snapshot": true` events.
import { offeredSelections } from '../../domain/outrights.js';
import type { Market } from '../../domain/types.js';
import { scoreEntry, statusEntry } from '../../live/log-entries.js';
import { familyOf, marketJson, oddsJson } from '../../live/log-render.js';
import type { OutrightBook } from '../../live/outright-book.js';
import { forcedLock, marketsVisible } from '../../live/payloads.js';
import { lockReason, type ReadModel } from '../../live/read-model.js';
import type { SnapshotFrame, SnapshotSource } from './stream-connection.js';
import type { StreamSubscription } from './stream-subscription.js';

const FLAG = '"snapshot":true';

function flagged(json: string): string {
  return `${json.slice(0, -1)},${FLAG}}`;
}

/** Tournament ids are kept apart from event ids in the snapshot's list by this prefix. */
const TOURNAMENT = 'tournament:';

export function snapshotSource(readModel: ReadModel, outrights: OutrightBook, sub: StreamSubscription): SnapshotSource {
  const wants = (name: 'status' | 'score' | 'markets' | 'outright'): boolean =>
    sub.types === null || sub.types.has(name);
  const ids: string[] = [];
  for (const le of readModel.order()) {
    const e = le.event;
    if (sub.eventIds !== null && !sub.eventIds.has(e.id)) continue;
    if (sub.sport !== null && e.sport !== sub.sport) continue;
    if (sub.league !== null && e.league.slug !== sub.league) continue;
    ids.push(e.id);
  }
  if (wants('outright') && sub.league === null) {
    for (const t of outrights.tournaments.values()) {
      if (sub.eventIds !== null && !sub.eventIds.has(t.tournamentId)) continue;
      if (sub.sport !== null && t.sport !== sub.sport) continue;
      ids.push(TOURNAMENT + t.tournamentId);
    }
  }

  const eventFrames = (id: string): SnapshotFrame[] => {
    const le = readModel.get(id);
    if (le === undefined) return [];
    const e = le.event;
    const frames: SnapshotFrame[] = [];
    if (wants('status')) frames.push({ name: 'status', data: flagged(statusEntry('status', e, lockReason(le)).json) });
    if (wants('score') && e.status !== 'prematch') frames.push({ name: 'score', data: flagged(scoreEntry(e).json) });
    if (wants('markets')) {
      const locked = forcedLock(le);
      const markets: Market[] = [];
      if (marketsVisible(le)) {
        for (let i = 0; i < le.book.marketCount; i++) {
          if (le.book.isWithdrawn(i)) continue;
          if (sub.families !== null && !sub.families.has(familyOf(le.book.key(i)))) continue;
          const m = le.book.toMarket(i, true);
          if (locked) for (const o of m.outcomes) o.isLocked = true;
          markets.push(m);
        }
      }
      frames.push({
        name: 'markets',
        data: `{"event_id":${JSON.stringify(e.id)},"added":[${markets.map((m) => marketJson(m, sub.format)).join(',')}],"withdrawn":[],${FLAG}}`,
      });
    }
    return frames;
  };

  const tournamentFrames = (id: string): SnapshotFrame[] => {
    const t = outrights.tournaments.get(id);
    if (t === undefined) return [];
    return outrights.openMarkets(t).map((m) => ({
      name: 'outright',
      data: `{"tournament_id":${JSON.stringify(t.tournamentId)},"tournament":${JSON.stringify(t.tournament)},"sport":${JSON.stringify(t.sport)},"change":"market","market":{"market_id":${m.marketId},"market":${JSON.stringify(m.market)},"selections":[${offeredSelections(
        m,
      )
        .map(
          (s) =>
            `{"selection_id":${s.selectionId},"selection":${JSON.stringify(s.selection)},"odds":${oddsJson(s.odds, sub.format)}}`,
        )
        .join(',')}],"updated_at":${JSON.stringify(new Date(m.updatedAt).toISOString())}},"result":null,${FLAG}}`,
    }));
  };

  return {
    ids,
    frames: (id) => (id.startsWith(TOURNAMENT) ? tournamentFrames(id.slice(TOURNAMENT.length)) : eventFrames(id)),
  };
}
