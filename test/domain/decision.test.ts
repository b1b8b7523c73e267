// Who won and how, table-driven: shoot-outs and penalties decide a level score, extra periods say how, walkovers and retirements name their winner.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionOf, type Decision, type DecisionInput } from '../../src/domain/decision.js';

const ps = (...xs: Array<[string, number, number]>) => xs.map(([period, home, away]) => ({ period, home, away }));

const VECTORS: Array<[string, DecisionInput, Decision]> = [
  [
    'a live game is not decided',
    { status: 'live', score: { home: 2, away: 1 }, periodScores: [] },
    { winner: null, decidedBy: null },
  ],
  [
    'a prematch game',
    { status: 'prematch', score: { home: 0, away: 0 }, periodScores: [] },
    { winner: null, decidedBy: null },
  ],
  [
    'a cancelled game has no winner',
    { status: 'cancelled', score: { home: 1, away: 0 }, periodScores: [] },
    { winner: null, decidedBy: null },
  ],
  [
    'soccer won in regulation',
    { status: 'ended', score: { home: 2, away: 1 }, periodScores: ps(['1H', 1, 0], ['2H', 1, 1]) },
    { winner: 'home', decidedBy: 'regulation' },
  ],
  [
    'a draw',
    { status: 'ended', score: { home: 1, away: 1 }, periodScores: ps(['1H', 0, 0], ['2H', 1, 1]) },
    { winner: null, decidedBy: 'regulation' },
  ],
  [
    'ice hockey 3-3 won in a shoot-out the result names',
    {
      status: 'ended',
      score: { home: 3, away: 3 },
      periodScores: ps(['P1', 1, 1], ['P2', 1, 1], ['P3', 1, 1], ['OT', 0, 0], ['SO', 1, 2]),
      winner: 'away',
    },
    { winner: 'away', decidedBy: 'shootout' },
  ],
  [
    'a shoot-out the result does not name: its own score tells',
    { status: 'ended', score: { home: 2, away: 2 }, periodScores: ps(['P3', 1, 1], ['SO', 3, 2]) },
    { winner: 'home', decidedBy: 'shootout' },
  ],
  [
    'a feed that counts the shoot-out goal in the score',
    { status: 'ended', score: { home: 4, away: 3 }, periodScores: ps(['P3', 1, 1], ['SO', 2, 1]) },
    { winner: 'home', decidedBy: 'shootout' },
  ],
  [
    'ice hockey won in overtime',
    { status: 'ended', score: { home: 2, away: 3 }, periodScores: ps(['P3', 1, 1], ['OT', 0, 1]) },
    { winner: 'away', decidedBy: 'overtime' },
  ],
  [
    'basketball in a second overtime',
    {
      status: 'ended',
      score: { home: 130, away: 128 },
      periodScores: ps(['Q4', 20, 20], ['OT1', 10, 10], ['OT2', 12, 10]),
    },
    { winner: 'home', decidedBy: 'overtime' },
  ],
  [
    'soccer in extra time',
    { status: 'ended', score: { home: 1, away: 2 }, periodScores: ps(['2H', 1, 1], ['ET', 0, 1]) },
    { winner: 'away', decidedBy: 'extra_time' },
  ],
  [
    'soccer on penalties after extra time',
    {
      status: 'ended',
      score: { home: 1, away: 1 },
      periodScores: ps(['2H', 1, 1], ['ET', 0, 0], ['PEN', 4, 5]),
      winner: 'away',
    },
    { winner: 'away', decidedBy: 'penalties' },
  ],
  [
    'baseball in the 11th',
    { status: 'ended', score: { home: 5, away: 4 }, periodScores: ps(['I9', 0, 0], ['I10', 0, 0], ['I11', 1, 0]) },
    { winner: 'home', decidedBy: 'extra_innings' },
  ],
  [
    'baseball in nine',
    { status: 'ended', score: { home: 3, away: 4 }, periodScores: ps(['I8', 0, 0], ['I9', 0, 1]) },
    { winner: 'away', decidedBy: 'regulation' },
  ],
  [
    'cricket innings are not extra innings',
    { status: 'ended', score: { home: 180, away: 175 }, periodScores: ps(['INN1', 180, 0], ['INN2', 0, 175]) },
    { winner: 'home', decidedBy: 'regulation' },
  ],
  [
    'a walkover',
    { status: 'walkover', score: { home: 0, away: 0 }, periodScores: [], winner: 'home' },
    { winner: 'home', decidedBy: 'walkover' },
  ],
  [
    'a retirement',
    { status: 'retired', score: { home: 1, away: 0 }, periodScores: ps(['S1', 6, 4], ['S2', 1, 2]), winner: 'away' },
    { winner: 'away', decidedBy: 'retirement' },
  ],
  [
    'a retirement the result does not name',
    { status: 'retired', score: { home: 1, away: 0 }, periodScores: [] },
    { winner: null, decidedBy: null },
  ],
  [
    'the result names a winner the score does not show',
    { status: 'ended', score: { home: 1, away: 1 }, periodScores: [], winner: 'home' },
    { winner: 'home', decidedBy: 'regulation' },
  ],
];

describe('decisionOf', () => {
  for (const [name, input, expected] of VECTORS) {
    it(name, () => assert.deepEqual(decisionOf(input), expected));
  }
});
