// Player props `player_<stat>_<player_id>:L`: a counter of the final player stats over or under L.
import type { PlayerLine, PlayerStats } from '../types.js';
import { gradeOverUnder, lineQuarters, overDecided } from './lines.js';
import { basisOf, gradeOutcomes, refundAll, ungradeable } from './outcome.js';
import type { FamilyGrader } from './types.js';

/** The player id is the last `_p<digits>` part of the family; the stat is what lies before it. */
const PROP_FAMILY = /^player_([a-z0-9_]+)_(p\d+)$/;

export function isPlayerPropFamily(family: string): boolean {
  return PROP_FAMILY.test(family);
}

export function parsePlayerProp(family: string): { stat: string; playerId: string } | null {
  const m = PROP_FAMILY.exec(family);
  return m === null || m[1] === undefined || m[2] === undefined ? null : { stat: m[1], playerId: m[2] };
}

/** The stats line of `p87`: a player_id `p87` (any case), or the number 87. */
function findPlayer(stats: PlayerStats, playerId: string): PlayerLine | undefined {
  const exact = stats.players.find((p) => String(p.playerId).toLowerCase() === playerId);
  if (exact !== undefined) return exact;
  return stats.players.find((p) => typeof p.playerId === 'number' && `p${p.playerId}` === playerId);
}

/**
 * Graded on the final stats of an ended event (pending until they arrive). A player missing from
 * them, or listed with `minutes: 0`, did not take part: refund. A counter absent from the player's
 * line counts 0 when other players have it; a counter nobody has is not one the feed reports.
 * When play stopped early the latest stats are used as they are: only an over already reached stands.
 */
export const gradePlayerProp: FamilyGrader = (market, key, ctx) => {
  const prop = parsePlayerProp(key.family);
  if (prop === null) return ungradeable(`${market.key}: not a player prop key`);
  const lineQ = lineQuarters(key.line ?? Number.NaN);
  if (lineQ === null) return ungradeable(`${market.key}: a player prop line is a multiple of 0.25`);
  const ended = ctx.result.status === 'ended';
  const stats = ctx.playerStats;
  if (ended && (stats === null || !stats.final)) return { status: 'pending', reason: 'awaiting final player stats' };
  const none = { name: prop.stat, player_id: prop.playerId, value: 0 };
  if (stats === null) return refundAll(market, basisOf({ rule: 'abandoned_refund' }));
  const player = findPlayer(stats, prop.playerId);
  if (player === undefined || player.counters.minutes === 0) {
    return refundAll(market, basisOf({ rule: 'did_not_play', stat: none }));
  }
  let value = player.counters[prop.stat];
  if (value === undefined) {
    if (!stats.players.some((p) => p.counters[prop.stat] !== undefined)) {
      if (!ended) return refundAll(market, basisOf({ rule: 'abandoned_refund' }));
      return ungradeable(`${market.key}: the final stats have no ${JSON.stringify(prop.stat)} counter`);
    }
    value = 0;
  }
  if (!Number.isSafeInteger(value)) return ungradeable(`${market.key}: counter ${String(value)} is not a whole number`);
  const count = value;
  const basis = basisOf({ stat: { name: prop.stat, player_id: prop.playerId, value: count } });
  if (!ended) {
    if (!overDecided(count, lineQ)) return refundAll(market, { ...basis, rule: 'abandoned_refund' });
    basis.rule = 'abandoned_decided';
  }
  return gradeOutcomes(market, (code) => gradeOverUnder(count, lineQ, code), basis);
};
