// Two real seasons (Premier League and Bundesliga 2023-24) replayed through the feed: every match settled, checked against its score.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { convertOpenfootball } from '../../src/feed/openfootball.js';
import { toNdjson } from '../../src/feed/ndjson.js';
import { startService } from '../helpers/service.js';

interface Entry {
  event_id: string;
  final_score: { home: number; away: number };
  pending_markets_count: number;
  resolved_markets: Array<{ key: string; outcomes: Array<{ label: string; result: string; selection_id: number }> }>;
}

const SEASONS = ['en.1.2023-24.json', 'de.1.2023-24.json'];

describe('real seasons through the feed', () => {
  it('settles every match of both seasons and every outcome agrees with the final score', async () => {
    const svc = await startService({
      // Both seasons ended in 2024: windows wide enough to keep them listed and detailed.
      now: Date.parse('2024-06-01T00:00:00Z'),
      env: {
        ENDED_RETENTION_HOURS: String(24 * 365 * 5),
        SETTLEMENT_DETAIL_DAYS: '3650',
        SETTLEMENT_FEED_DAYS: '3650',
      },
    });
    try {
      let matches = 0;
      for (const file of SEASONS) {
        const season: unknown = JSON.parse(
          await readFile(join(process.cwd(), 'test/feed/fixtures/openfootball', file), 'utf8'),
        );
        const messages = convertOpenfootball(season);
        matches += messages.filter((m) => m.type === 'result').length;
        const report = await svc.feed(toNdjson(messages));
        assert.equal(report.rejected, 0, JSON.stringify(report.errors.slice(0, 3)));
      }
      await svc.service.settlement.idle();
      assert.equal(matches, 380 + 306);

      const entries: Entry[] = [];
      let url = '/v1/settlements?limit=200';
      for (;;) {
        const page = await svc.get<{
          settlements: Entry[];
          next_cursor: string | null;
          total: number;
          fully_settled: number;
        }>(url);
        assert.equal(page.status, 200, page.text);
        assert.equal(page.body.total, matches);
        assert.equal(page.body.fully_settled, matches);
        entries.push(...page.body.settlements);
        if (page.body.next_cursor === null) break;
        url = `/v1/settlements?limit=200&cursor=${page.body.next_cursor}`;
      }
      assert.equal(entries.length, matches);
      assert.equal(new Set(entries.map((e) => e.event_id)).size, matches);

      for (const e of entries) {
        const { home, away } = e.final_score;
        assert.equal(e.pending_markets_count, 0);
        const grade = (key: string): Map<number, string> =>
          new Map((e.resolved_markets.find((m) => m.key === key)?.outcomes ?? []).map((o, i) => [i, o.result]));
        // Outcome order of the converter: 1x2 home/draw/away, totals over/under, btts yes/no.
        const oneXTwo = grade('1x2');
        const winner = home > away ? 0 : home === away ? 1 : 2;
        for (const i of [0, 1, 2]) assert.equal(oneXTwo.get(i), i === winner ? 'won' : 'lost', `${e.event_id} 1x2`);
        const over = home + away > 2.5;
        assert.deepEqual(
          [grade('totals:2.5').get(0), grade('totals:2.5').get(1)],
          over ? ['won', 'lost'] : ['lost', 'won'],
        );
        const both = home > 0 && away > 0;
        assert.deepEqual([grade('btts').get(0), grade('btts').get(1)], both ? ['won', 'lost'] : ['lost', 'won']);
      }
    } finally {
      await svc.close();
    }
  });
});
