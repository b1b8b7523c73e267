// Table-driven tests of the event lifecycle: every status move, every result, and how statuses are reported and listed.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  FEED_STATUSES,
  FINAL_STATUSES,
  acceptsLiveData,
  checkResult,
  checkStatusMove,
  isListedByDefault,
  isTerminal,
  resultStatusOf,
  type TransitionCheck,
} from '../../src/domain/lifecycle.js';
import { EVENT_STATUSES, type EventStatus, type FinalStatus, type ResultStatus } from '../../src/domain/types.js';

const STATUSES: readonly EventStatus[] = EVENT_STATUSES;

type Expected = 'noop' | 'allowed' | 'rejected';
const SYMBOL: Readonly<Record<string, Expected>> = { '=': 'noop', Y: 'allowed', '.': 'rejected' };

/** Reads a matrix written out by hand: one row per `from` status, one column per `to` value. */
function matrix<T extends string>(columns: readonly T[], rows: string): Map<string, Expected> {
  const out = new Map<string, Expected>();
  for (const line of rows.trim().split('\n')) {
    const [label, cells] = line.split(':');
    assert.ok(label !== undefined && cells !== undefined, line);
    const symbols = cells.trim().split(/\s+/);
    assert.equal(symbols.length, columns.length, `row ${label} has one cell per column`);
    columns.forEach((to, i) => {
      const expected = SYMBOL[symbols[i] ?? ''];
      assert.ok(expected !== undefined, `row ${label} column ${to}`);
      out.set(`${label.trim()}>${to}`, expected);
    });
  }
  return out;
}

// `status` messages. Rows: from. Columns (to), in this order:
//              prematch live ended cancelled postponed suspended delayed interrupted abandoned retired walkover
// = no-op (same status), Y allowed, . rejected.
const STATUS_MOVES = matrix(
  STATUSES,
  `
prematch:     =  Y  .  Y  Y  .  Y  .  .  .  Y
live:         .  =  .  Y  Y  Y  .  Y  Y  Y  .
ended:        .  .  =  .  .  .  .  .  .  .  .
cancelled:    .  .  .  =  .  .  .  .  .  .  .
postponed:    .  Y  .  Y  =  .  Y  .  .  .  Y
suspended:    .  Y  .  Y  Y  =  .  Y  Y  Y  .
delayed:      .  Y  .  Y  Y  .  =  .  .  .  Y
interrupted:  .  Y  .  Y  Y  Y  .  =  Y  Y  .
abandoned:    .  .  .  .  .  .  .  .  =  .  .
retired:      .  .  .  .  .  .  .  .  .  =  .
walkover:     .  .  .  .  .  .  .  .  .  .  =
`,
);

// `result` messages. Rows: the event's status. Columns: the result's status, in this order:
//              ended cancelled abandoned retired walkover
const RESULT_STATUSES: readonly FinalStatus[] = ['ended', 'cancelled', 'abandoned', 'retired', 'walkover'];
const RESULTS = matrix(
  RESULT_STATUSES,
  `
prematch:     Y  Y  .  .  Y
live:         Y  Y  Y  Y  .
ended:        Y  .  .  .  .
cancelled:    .  Y  .  .  .
postponed:    Y  Y  .  .  Y
suspended:    Y  Y  Y  Y  .
delayed:      Y  Y  .  .  Y
interrupted:  Y  Y  Y  Y  .
abandoned:    .  .  Y  .  .
retired:      .  .  .  Y  .
walkover:     .  .  .  .  Y
`,
);

function outcome(check: TransitionCheck): Expected {
  if (!check.ok) {
    assert.ok(check.reason.length > 0, 'a rejection carries a reason');
    return 'rejected';
  }
  return check.noop ? 'noop' : 'allowed';
}

const TERMINAL: readonly EventStatus[] = ['ended', 'cancelled', 'abandoned', 'retired', 'walkover'];

describe('checkStatusMove: every (from, to) pair', () => {
  test('the table covers all 121 pairs', () => {
    assert.equal(STATUS_MOVES.size, STATUSES.length * STATUSES.length);
  });
  for (const from of STATUSES) {
    for (const to of STATUSES) {
      const expected = STATUS_MOVES.get(`${from}>${to}`);
      test(`status ${from} → ${to} is ${expected}`, () => {
        assert.equal(outcome(checkStatusMove(from, to)), expected);
      });
    }
  }
});

describe('checkStatusMove: rules', () => {
  test('an equal status is a no-op for every status, terminal ones included', () => {
    for (const s of STATUSES) assert.deepEqual(checkStatusMove(s, s), { ok: true, noop: true });
  });
  test("'ended' through a status message is rejected from every other status, pointing to the result message", () => {
    for (const from of STATUSES.filter((s) => s !== 'ended')) {
      const check = checkStatusMove(from, 'ended');
      assert.equal(check.ok, false, from);
      if (!check.ok) assert.match(check.reason, /result/);
    }
  });
  test("nothing goes back to 'prematch'", () => {
    for (const from of STATUSES.filter((s) => s !== 'prematch')) {
      const check = checkStatusMove(from, 'prematch');
      assert.equal(check.ok, false, from);
      if (!check.ok) assert.match(check.reason, /prematch/);
    }
  });
  test('a terminal status rejects every other status and says it is final', () => {
    for (const from of TERMINAL) {
      for (const to of STATUSES.filter((s) => s !== from && s !== 'ended' && s !== 'prematch')) {
        const check = checkStatusMove(from, to);
        assert.equal(check.ok, false, `${from} → ${to}`);
        if (!check.ok) assert.match(check.reason, /final status/, `${from} → ${to}`);
      }
    }
  });
  test("'live' after 'ended' is rejected (feed.md's example)", () => {
    assert.equal(checkStatusMove('ended', 'live').ok, false);
  });
  test('a disrupted game can resume: suspended, interrupted, delayed and postponed → live', () => {
    for (const from of ['suspended', 'interrupted', 'delayed', 'postponed'] as const) {
      assert.deepEqual(checkStatusMove(from, 'live'), { ok: true, noop: false });
    }
  });
  test('FEED_STATUSES are exactly the statuses a status message may carry', () => {
    assert.deepEqual([...FEED_STATUSES].sort(), [
      'abandoned',
      'cancelled',
      'delayed',
      'interrupted',
      'live',
      'postponed',
      'retired',
      'suspended',
      'walkover',
    ]);
  });
});

describe('checkResult: every (event status, result status) pair', () => {
  test('the table covers all 55 pairs', () => {
    assert.equal(RESULTS.size, STATUSES.length * RESULT_STATUSES.length);
  });
  for (const from of STATUSES) {
    for (const status of RESULT_STATUSES) {
      const expected = RESULTS.get(`${from}>${status}`);
      test(`result ${status} for an event that is ${from} is ${expected}`, () => {
        assert.equal(outcome(checkResult(from, status)), expected);
      });
    }
  }
  test('an accepted result is never a no-op (the caller decides whether an ended result is a correction)', () => {
    for (const from of STATUSES) {
      for (const status of RESULT_STATUSES) {
        const check = checkResult(from, status);
        if (check.ok) assert.equal(check.noop, false, `${from} / ${status}`);
      }
    }
  });
  test("an official result 'ended' is accepted even when the feed never reported kick-off", () => {
    const check = checkResult('prematch', 'ended');
    assert.equal(check.ok, true);
  });
  test('FINAL_STATUSES are the result statuses', () => {
    assert.deepEqual([...FINAL_STATUSES].sort(), [...RESULT_STATUSES].sort());
  });
});

describe('how statuses are reported', () => {
  const RESULT_STATUS: ReadonlyArray<readonly [EventStatus, ResultStatus]> = [
    ['prematch', 'not_ended'],
    ['live', 'not_ended'],
    ['ended', 'ended'],
    ['cancelled', 'cancelled'],
    ['postponed', 'postponed'],
    ['suspended', 'suspended'],
    ['delayed', 'delayed'],
    ['interrupted', 'interrupted'],
    ['abandoned', 'abandoned'],
    ['retired', 'retired'],
    ['walkover', 'walkover'],
  ];
  for (const [status, expected] of RESULT_STATUS) {
    test(`the result endpoint reports a ${status} event as ${expected}`, () => {
      assert.equal(resultStatusOf(status), expected);
    });
  }

  // Listed by default, terminal, accepts live data: interface.md excludes ended and cancelled from the
  // default listing; the module also excludes the other final statuses.
  const FLAGS: ReadonlyArray<readonly [EventStatus, boolean, boolean]> = [
    ['prematch', true, false],
    ['live', true, false],
    ['ended', false, true],
    ['cancelled', false, true],
    ['postponed', true, false],
    ['suspended', true, false],
    ['delayed', true, false],
    ['interrupted', true, false],
    ['abandoned', false, true],
    ['retired', false, true],
    ['walkover', false, true],
  ];
  for (const [status, listed, terminal] of FLAGS) {
    test(`a ${status} event is ${listed ? '' : 'not '}listed by default and ${terminal ? 'is' : 'is not'} terminal`, () => {
      assert.equal(isListedByDefault(status), listed);
      assert.equal(isTerminal(status), terminal);
      assert.equal(acceptsLiveData(status), !terminal);
    });
  }
});
