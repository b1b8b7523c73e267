// The world clock: the wall clock until a world runs at another pace; what it tells (isWall, speed) follows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceleratedClock, WorldClock } from '../../src/domain/clock.js';

describe('WorldClock', () => {
  const T = Date.parse('2026-03-01T12:00:00Z');

  test('reads the wall clock until told otherwise: isWall, speed 1', () => {
    let wall = T;
    const clock = new WorldClock(() => wall);
    assert.equal(clock.now(), T);
    wall += 1234;
    assert.equal(clock.now(), T + 1234);
    assert.equal(clock.isWall, true);
    assert.equal(clock.speed, 1);
  });

  test('an accelerated world runs ahead from where it started; null goes back to the wall', () => {
    let wall = T;
    const clock = new WorldClock(() => wall);
    clock.run({ startAt: T + 60_000, wallStartAt: T, speed: 60 });
    assert.equal(clock.now(), T + 60_000);
    wall += 1000;
    assert.equal(clock.now(), T + 60_000 + 60_000);
    assert.deepEqual([clock.isWall, clock.speed], [false, 60]);
    clock.run(null);
    assert.deepEqual([clock.now(), clock.isWall, clock.speed], [T + 1000, true, 1]);
  });

  test('speed 1 started at the wall time is the wall clock itself (SIM_SPEED=1 changes nothing)', () => {
    const wall = () => T;
    const clock = new WorldClock(wall);
    clock.run({ startAt: T, wallStartAt: T, speed: 1 });
    assert.equal(clock.isWall, true);
    assert.equal(acceleratedClock(T, T, 1, wall), wall);
  });

  test('speed 1 resumed ahead of the wall (after an accelerated run) is a world of its own', () => {
    let wall = T;
    const clock = new WorldClock(() => wall);
    clock.run({ startAt: T + 3_600_000, wallStartAt: T, speed: 1 });
    wall += 500;
    assert.deepEqual([clock.now(), clock.isWall, clock.speed], [T + 3_600_500, false, 1]);
  });

  test('`now` keeps working when passed around detached from the object', () => {
    let wall = T;
    const clock = new WorldClock(() => wall);
    const now = clock.now;
    clock.run({ startAt: T, wallStartAt: T, speed: 10 });
    wall += 100;
    assert.equal(now(), T + 1000);
  });
});
