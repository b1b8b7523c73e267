// Tests of buildWorld: deterministic from the seed, every sport of interface.md with leagues, teams and squads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SPORT_KEYS } from '../../../src/domain/sports.js';
import { DEFAULT_SIM_CONFIG } from '../../../src/feed/simulator/config.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

describe('buildWorld', () => {
  it('builds the same world from the same seed and another from another seed', () => {
    assert.deepEqual(buildWorld(42), buildWorld(42));
    const a = buildWorld(42);
    const b = buildWorld(7);
    assert.notDeepEqual(
      a.leagues.map((l) => l.teams.map((t) => t.name)),
      b.leagues.map((l) => l.teams.map((t) => t.name)),
    );
  });

  it('covers all 19 sports of the sport table, each with leagues of several tiers', () => {
    const w = buildWorld(1);
    assert.deepEqual([...new Set(w.leagues.map((l) => l.sport))].sort(), [...SPORT_KEYS].sort());
    for (const sport of SPORT_KEYS) {
      const leagues = w.leagues.filter((l) => l.sport === sport);
      assert.ok(leagues.length >= 2, `${sport} has ${leagues.length} leagues`);
      assert.ok(
        leagues.some((l) => l.tier === 1),
        `${sport} has a top league`,
      );
    }
  });

  it('gives every league a unique slug, a country and enough competitors', () => {
    const w = buildWorld(3);
    const slugs = new Set<string>();
    for (const l of w.leagues) {
      assert.match(l.slug, /^[a-z0-9-]+$/);
      assert.ok(!slugs.has(l.slug), `duplicate slug ${l.slug}`);
      slugs.add(l.slug);
      assert.ok(l.country.length > 0 && l.name.length > 0);
      assert.ok(l.teams.length >= 8, `${l.slug} has ${l.teams.length} teams`);
      assert.equal(new Set(l.teams.map((t) => t.name)).size, l.teams.length, `${l.slug} team names repeat`);
    }
  });

  it('gives every team a stable logo id unique in the world', () => {
    const w = buildWorld(3);
    const ids = w.leagues.flatMap((l) => l.teams.map((t) => t.logoId));
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{1,64}$/);
    assert.deepEqual(
      ids,
      buildWorld(3).leagues.flatMap((l) => l.teams.map((t) => t.logoId)),
    );
  });

  it('gives clubs full squads and individual competitors one player, with ids unique in the world', () => {
    const w = buildWorld(3);
    const soccer = w.leagues.find((l) => l.sport === 'soccer')!;
    assert.ok(soccer.teams.every((t) => t.players.length >= 20 && t.players.some((p) => p.position === 'GK')));
    const tennis = w.leagues.find((l) => l.sport === 'tennis')!;
    assert.ok(tennis.teams.every((t) => t.players.length === 1 && t.players[0]!.name === t.name));
    const ids = w.leagues.flatMap((l) => l.teams.flatMap((t) => t.players.map((p) => p.id)));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, w.playerCount);
  });

  it('looks two weeks ahead for top leagues and a day or two for minor ones', () => {
    const h = DEFAULT_SIM_CONFIG.horizonHours;
    assert.equal(h[1], 14 * 24);
    assert.ok(h[3] >= 24 && h[3] <= 48);
    assert.ok(h[2] > h[3] && h[2] < h[1]);
  });
});
