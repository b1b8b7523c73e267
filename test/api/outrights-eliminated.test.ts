// Eliminated outright selections (feed `eliminated: true`): not offered, still settled and still checkable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  outrightMarket,
  outrightResult,
  tournament,
  type OutrightFeed,
  type OutrightList,
} from '../helpers/outrights.js';
import { feedOk, startService } from '../helpers/service.js';

const withEliminated = (): Record<string, unknown> => {
  const m = outrightMarket('cup', 9, [
    [91, 'Team A', 1.8],
    [92, 'Team B', 2.6],
    [93, 'Team C', 1000],
  ]);
  (m.selections as Array<Record<string, unknown>>)[2]!.eliminated = true;
  return m;
};

interface Check {
  status: string;
  legs: Array<{ result: string; selection_id: number }>;
}

describe('eliminated outright selections', () => {
  it('are not listed, settle as lost, and a bet on one is still checked', async () => {
    const svc = await startService();
    try {
      await feedOk(svc, [tournament('cup', 'soccer', 'National Cup 7 Mar 2026'), withEliminated()]);
      const list = await svc.get<OutrightList>('/v1/outrights');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.tournaments[0]!.markets[0]!.selections.map((s) => s.selection_id),
        [91, 92],
      );
      const body = { legs: [{ tournament_id: 'cup', market_id: 9, selection_id: 93 }], stake: 10 };
      const pending = await svc.inject<Check>('POST', '/v1/bets/check', { body });
      assert.equal(pending.status, 200, pending.text);
      assert.equal(pending.body.legs[0]!.result, 'pending');

      await feedOk(svc, [outrightResult('cup', 9, [91])]);
      const feed = await svc.get<OutrightFeed>('/v1/settlements/outrights');
      const lost = feed.body.outright_settlements.find((e) => e.selection_id === 93);
      assert.equal(lost?.result, 'lost');
      const settled = await svc.inject<Check>('POST', '/v1/bets/check', { body });
      assert.equal(settled.body.legs[0]!.result, 'lost');
    } finally {
      await svc.close();
    }
  });

  it('a selection flagged again or unflagged is a change; the same flags again change nothing', async () => {
    const svc = await startService();
    try {
      await feedOk(svc, [tournament('cup', 'soccer'), withEliminated()]);
      await feedOk(svc, [withEliminated()]);
      const back = outrightMarket('cup', 9, [
        [91, 'Team A', 1.8],
        [92, 'Team B', 2.6],
        [93, 'Team C', 1000],
      ]);
      await feedOk(svc, [back]);
      const list = await svc.get<OutrightList>('/v1/outrights');
      assert.equal(list.body.tournaments[0]!.markets[0]!.selections.length, 3);
    } finally {
      await svc.close();
    }
  });

  it('a market whose selections are all eliminated is not listed', async () => {
    const svc = await startService();
    try {
      const m = outrightMarket('cup', 9, [[91, 'Team A', 1000]]);
      (m.selections as Array<Record<string, unknown>>)[0]!.eliminated = true;
      await feedOk(svc, [tournament('cup', 'soccer'), m]);
      const list = await svc.get<OutrightList>('/v1/outrights');
      assert.deepEqual(list.body.tournaments, []);
    } finally {
      await svc.close();
    }
  });
});
