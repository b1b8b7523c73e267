// In-play rules, followed through whole seeded games of several sports: markets stay open, decided ones close, no bound prices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_DISRUPTIONS, resolveConfig } from '../../../src/feed/simulator/config.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';
import { observeInPlay } from './inplay-observer.js';

const PUBLISH = Date.parse('2026-03-07T10:00:00Z');
const world = buildWorld(2026);
const MAX_ODDS = resolveConfig({}).maxOdds;
const SPORTS = [
  'tennis',
  'basketball',
  'baseball',
  'soccer',
  'ice_hockey',
  'handball',
  'darts',
  'american_football',
  'cs2',
  'lol',
];
const SEEDS = [11, 12, 13];
/** The longest a client may find every market of a live game locked (a goal review, a set break). */
const LONGEST_LOCK_MS = 3 * 60_000;

describe('in-play markets live through the whole game', () => {
  for (const sport of SPORTS) {
    it(`${sport}: open through the game, decided markets closed, nothing at the bounds, locks brief`, () => {
      const mainShares: number[] = [];
      for (const seed of SEEDS) {
        const { messages } = playOneGame({
          seed,
          world,
          sport,
          tier: 1,
          publishAt: PUBLISH,
          config: { disruptions: NO_DISRUPTIONS },
        });
        const r = observeInPlay(sport, messages, MAX_ODDS);
        const tag = `${sport} seed ${seed}`;
        assert.ok(r.liveMs > 0, `${tag}: the game was played live`);
        assert.deepEqual(r.openDecided, [], `${tag}: open markets the state decided`);
        assert.deepEqual(r.atBounds, [], `${tag}: open outcomes at the price bounds`);
        assert.deepEqual(r.clockBack, [], `${tag}: clock ran backwards`);
        const anyShare = 1 - r.noOpenMs / r.liveMs;
        assert.ok(anyShare >= 0.9, `${tag}: some market open ${(anyShare * 100).toFixed(1)}% of live time`);
        // While the winner is still in play, its market is open but for brief locks: 90% over the
        // seeds, and no game below 80% (one game's runs and breaks vary: baseball locks after every run).
        const mainShare = 1 - r.mainLockedInLifeMs / r.mainLifeMs;
        mainShares.push(mainShare);
        assert.ok(mainShare >= 0.8, `${tag}: main market open ${(mainShare * 100).toFixed(1)}% of its life`);
        assert.ok(
          r.longestNoOpenMs <= LONGEST_LOCK_MS,
          `${tag}: everything locked for ${(r.longestNoOpenMs / 1000).toFixed(0)} s in a row`,
        );
      }
      const mean = mainShares.reduce((a, b) => a + b, 0) / mainShares.length;
      assert.ok(mean >= 0.9, `${sport}: main market open ${(mean * 100).toFixed(1)}% of its life over the seeds`);
    });
  }

  // Minor tiers withdraw the whole book near the end (SimGame), for good. A tennis match has no such
  // moment (a match point saved can lead to another set): "serving for the match" withdrew tier-3
  // books games early, and after a break back for the rest of the match (the realism report: 56% of
  // tier-3 live samples with an empty book). Match points lock the book briefly instead.
  it('minor-tier tennis: the book lives to the last point', () => {
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const { messages } = playOneGame({
        seed,
        world,
        sport: 'tennis',
        tier: 3,
        publishAt: PUBLISH,
        config: { disruptions: NO_DISRUPTIONS },
      });
      const r = observeInPlay('tennis', messages, MAX_ODDS);
      const anyShare = 1 - r.noOpenMs / r.liveMs;
      assert.ok(
        anyShare >= 0.9,
        `tennis tier 3 seed ${seed}: some market open ${(anyShare * 100).toFixed(1)}% of live time`,
      );
    }
  });

  // Where the end can be averted (a checkout missed in darts, a match point round lost in CS2 or
  // Valorant, a frame ball missed in snooker), a minor tier's book withdrawn near the end comes
  // back when the game goes on: it was withdrawn for good, leaving 7-22% of live samples empty
  // (darts 79% open over these seeds before). The withdrawal near the real end is meant: it is the
  // last minutes of a match (a snooker frame out of reach is played out), hence 85%, not 90%.
  for (const sport of ['darts', 'cs2', 'valorant', 'snooker']) {
    it(`minor-tier ${sport}: a book withdrawn near the end comes back if the end is averted`, () => {
      const shares: number[] = [];
      for (const seed of [11, 12, 13, 14, 15, 16]) {
        const { messages } = playOneGame({
          seed,
          world,
          sport,
          tier: 3,
          publishAt: PUBLISH,
          config: { disruptions: NO_DISRUPTIONS },
        });
        const r = observeInPlay(sport, messages, MAX_ODDS);
        shares.push(1 - r.noOpenMs / r.liveMs);
        assert.deepEqual(r.openDecided, [], `${sport} seed ${seed}: open markets the state decided`);
      }
      const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
      assert.ok(
        mean >= 0.85,
        `${sport} tier 3: some market open ${(mean * 100).toFixed(1)}% of live time (${shares.map((x) => (x * 100).toFixed(0)).join(', ')})`,
      );
    });
  }
});
