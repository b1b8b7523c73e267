// Tests of the sport catalog: the 19 sports of interface.md, unique keys and ids, and the lookups.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SPORTS, SPORT_KEYS, sportById, sportByKey, sportOrder } from '../../src/domain/sports.js';

/** interface.md's sport-specific table, one row per sport, with the key a client filters by. */
const INTERFACE_SPORTS: ReadonlyArray<readonly [string, string]> = [
  ['tennis', 'Tennis'],
  ['volleyball', 'Volleyball'],
  ['table_tennis', 'Table Tennis'],
  ['ice_hockey', 'Ice Hockey'],
  ['soccer', 'Football (soccer)'],
  ['basketball', 'Basketball'],
  ['american_football', 'American Football'],
  ['baseball', 'Baseball'],
  ['cs2', 'CS2'],
  ['valorant', 'Valorant'],
  ['dota2', 'Dota 2'],
  ['lol', 'LoL'],
  ['cricket', 'Cricket'],
  ['handball', 'Handball'],
  ['rugby', 'Rugby'],
  ['darts', 'Darts'],
  ['snooker', 'Snooker'],
  ['mma', 'MMA'],
  ['boxing', 'Boxing'],
];

const ESPORTS = ['cs2', 'valorant', 'dota2', 'lol'];

describe('sport catalog', () => {
  test('has the 19 sports of interface.md, no more, no fewer', () => {
    assert.equal(SPORTS.length, 19);
    assert.deepEqual([...SPORT_KEYS].sort(), INTERFACE_SPORTS.map(([key]) => key).sort());
  });
  test('keys are unique, lower case and usable in a query string', () => {
    assert.equal(new Set(SPORT_KEYS).size, SPORT_KEYS.length);
    for (const key of SPORT_KEYS) assert.match(key, /^[a-z][a-z0-9_]*$/, key);
  });
  test('sport ids are unique positive integers', () => {
    const ids = SPORTS.map((s) => s.sportId);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.ok(Number.isInteger(id) && id > 0, String(id));
  });
  test('display names are unique and non-empty', () => {
    const names = SPORTS.map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) assert.ok(name.trim().length > 0 && name.trim() === name, name);
  });
  test('SPORT_KEYS follows the catalog order', () => {
    assert.deepEqual(
      SPORT_KEYS,
      SPORTS.map((s) => s.key),
    );
  });
  test('exactly CS2, Valorant, Dota 2 and LoL are esports', () => {
    assert.deepEqual(
      SPORTS.filter((s) => s.esport)
        .map((s) => s.key)
        .sort(),
      [...ESPORTS].sort(),
    );
  });
  test('soccer has a draw (1x2), tennis and the esports do not (moneyline)', () => {
    assert.equal(sportByKey('soccer')?.hasDraw, true);
    for (const key of ['tennis', ...ESPORTS]) assert.equal(sportByKey(key)?.hasDraw, false, key);
  });
});

describe('sport lookups', () => {
  for (const [key] of INTERFACE_SPORTS) {
    test(`${key} is found by key and by its id, and both give the same entry`, () => {
      const byKey = sportByKey(key);
      assert.ok(byKey !== undefined);
      assert.equal(byKey.key, key);
      assert.equal(sportById(byKey.sportId), byKey);
      assert.equal(sportOrder(key), byKey.sportId);
    });
  }
  test('an unknown key or id is undefined, and lookups are case-sensitive (keys are lower case)', () => {
    for (const key of ['', 'football', 'Soccer', 'SOCCER', 'all', 'esports']) {
      assert.equal(sportByKey(key), undefined, key);
    }
    for (const id of [0, -1, 20, 1.5, Number.NaN]) assert.equal(sportById(id), undefined, String(id));
  });
  test('an unknown sport sorts after every known one', () => {
    const last = Math.max(...SPORTS.map((s) => sportOrder(s.key)));
    assert.ok(sportOrder('curling') > last);
  });
});
