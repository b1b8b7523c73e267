// The live console's shared script, run outside a browser: odds in every format, moves and their direction, market families.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';

interface Outcome {
  odds: unknown;
  locked: boolean;
  dir: string;
  flash: number;
}

interface ConsoleApi {
  formatOdds(value: unknown, format: string): string;
  decimalOf(value: unknown, format: string): number | null;
  movePrice(o: Outcome, odds: unknown, locked: boolean | undefined, format: string): void;
  familyOf(key: string): string;
  familyName(family: string): string;
}

/** console.js as the browser runs it: an IIFE that hangs its helpers on `window.SdsConsole`. */
function loadConsole(): ConsoleApi {
  const source = readFileSync(join(process.cwd(), 'src/portal/assets/console.js'), 'utf8');
  const window: { SdsConsole?: ConsoleApi } = {};
  runInNewContext(source, { window, document: {}, performance: { now: () => 0 } });
  assert.ok(window.SdsConsole !== undefined, 'console.js defines window.SdsConsole');
  return window.SdsConsole;
}

describe('console.js helpers', () => {
  const C = loadConsole();

  test('odds are shown as each format writes them', () => {
    assert.equal(C.formatOdds(2.5, 'decimal'), '2.50');
    assert.equal(C.formatOdds(150, 'american'), '+150');
    assert.equal(C.formatOdds(-200, 'american'), '-200');
    assert.equal(C.formatOdds('3/2', 'fractional'), '3/2');
    assert.equal(C.formatOdds(null, 'decimal'), '–');
  });

  test('every format compares as its decimal price', () => {
    assert.equal(C.decimalOf(2.5, 'decimal'), 2.5);
    assert.equal(C.decimalOf(150, 'american'), 2.5);
    assert.equal(C.decimalOf(-200, 'american'), 1.5);
    assert.equal(C.decimalOf(100, 'american'), 2);
    assert.equal(C.decimalOf('3/2', 'fractional'), 2.5);
    assert.equal(C.decimalOf('1/1', 'fractional'), 2);
    assert.equal(C.decimalOf(null, 'american'), null);
  });

  test('a move records its direction and a flash; a lock alone does not move the price', () => {
    const o: Outcome = { odds: -110, locked: false, dir: '', flash: 0 };
    C.movePrice(o, 120, undefined, 'american');
    assert.deepEqual([o.odds, o.dir, o.flash], [120, 'up', 1]);
    C.movePrice(o, -150, undefined, 'american');
    assert.deepEqual([o.odds, o.dir, o.flash], [-150, 'down', 2]);
    C.movePrice(o, -150, true, 'american');
    assert.deepEqual([o.odds, o.dir, o.flash, o.locked], [-150, 'down', 2, true]);
    const f: Outcome = { odds: '6/4', locked: false, dir: '', flash: 0 };
    C.movePrice(f, '13/8', false, 'fractional');
    assert.equal(f.dir, 'up');
  });

  test('markets group by family; player props by their counter', () => {
    assert.equal(C.familyOf('1x2'), '1x2');
    assert.equal(C.familyOf('1x2@1h'), '1x2');
    assert.equal(C.familyOf('asian_handicap:-0.25'), 'asian_handicap');
    assert.equal(C.familyOf('totals@q1:45.5'), 'totals');
    assert.equal(C.familyOf('player_goals_p9:0.5'), 'player_goals');
    assert.equal(C.familyOf('player_shots_on_target_p12:1.5'), 'player_shots_on_target');
    assert.equal(C.familyName('asian_handicap'), 'Asian handicap');
    assert.equal(C.familyName('player_goals'), 'Player goals');
  });
});
