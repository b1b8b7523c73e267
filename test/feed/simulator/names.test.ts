// Names of the simulated world as real competitions write them: gender-consistent tours, no numbered teams, season labels.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDED_LEAGUES, SPORT_PLANS } from '../../../src/feed/simulator/catalog.js';
import { FEMALE_FIRST_NAMES, MALE_FIRST_NAMES } from '../../../src/feed/simulator/names.js';
import { buildSeries, editionStart, tournamentNameOf } from '../../../src/feed/simulator/outrights/calendar.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const SEEDS = [1, 42, 20260101];
const WOMEN_MARKERS = /\b(WTA|women|women's|ladies|WNBA|WSL|féminine|femenina|frauen)\b/i;

const firstName = (full: string): string => full.split(' ')[0]!;

describe('names: gender-consistent competitions', () => {
  it('every competition whose name says women is planned as a women’s one, and there is one', () => {
    const plans = [...SPORT_PLANS.flatMap((s) => s.leagues.map((plan) => ({ sport: s.key, plan }))), ...ADDED_LEAGUES];
    const women = plans.filter(({ plan }) => plan.gender === 'women');
    assert.ok(women.length >= 1);
    for (const { sport, plan } of plans) {
      if (WOMEN_MARKERS.test(plan.name)) assert.equal(plan.gender, 'women', `${sport}/${plan.name}`);
    }
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: women’s competitions have only women’s names, men’s ones only men’s`, () => {
      const female = new Set(FEMALE_FIRST_NAMES);
      const male = new Set(MALE_FIRST_NAMES);
      for (const l of buildWorld(seed).leagues) {
        const people = l.teams.flatMap((t) =>
          l.kind === 'person' ? [t.name] : l.kind === 'club' ? t.players.map((p) => p.name) : [],
        );
        for (const name of people) {
          const first = firstName(name);
          if (l.plan.gender === 'women') assert.ok(female.has(first), `${l.name}: ${name}`);
          else assert.ok(male.has(first), `${l.name}: ${name}`);
        }
      }
    });
  }

  it('the two first-name pools share no name', () => {
    const female = new Set(FEMALE_FIRST_NAMES);
    for (const n of MALE_FIRST_NAMES) assert.ok(!female.has(n), n);
  });
});

describe('names: distinct teams, never numbered', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: no team is called "… 2", and no two teams of a sport share a name`, () => {
      const bySport = new Map<string, Set<string>>();
      for (const l of buildWorld(seed).leagues) {
        if (l.kind === 'person') continue;
        const seen = bySport.get(l.sport) ?? new Set<string>();
        bySport.set(l.sport, seen);
        for (const t of l.teams) {
          assert.doesNotMatch(t.name, /\s\d+$/, `${l.name}: ${t.name}`);
          // Esports organisations field teams in several tiers of one game, as real ones do.
          if (l.kind === 'club') assert.ok(!seen.has(t.name), `${l.sport}: ${t.name} twice (${l.name})`);
          seen.add(t.name);
        }
      }
    });
  }
});

describe('names: seasons as real competitions write them', () => {
  const world = buildWorld(42);
  const series = buildSeries(42, world.leagues, world.leagues);
  const from = Date.UTC(2026, 0, 1);
  const to = Date.UTC(2028, 0, 1);

  it('no "Season N": league seasons are "2026-27" (August-May) or "2026" (calendar year), with their months', () => {
    let checked = 0;
    for (const s of series) {
      if (s.plan.label !== 'season') continue;
      const k0 = Math.ceil((from - s.phaseMs) / s.plan.periodMs);
      for (let k = k0; editionStart(s, k) < to; k++) {
        const name = tournamentNameOf(s, k);
        assert.doesNotMatch(name, /Season \d/, name);
        assert.match(name, / (\d{4}-\d{2}|\d{4}) \([A-Z][a-z]{2}(-[A-Z][a-z]{2})?\)$/, name);
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} seasons`);
  });

  it('August-May leagues and calendar-year leagues are labelled by their own calendars', () => {
    const pl = series.find((s) => s.league.name === 'Premier League' && s.league.sport === 'soccer')!;
    const mlb = series.find((s) => s.league.name === 'MLB')!;
    const at = (s: typeof pl, t: number): string => {
      const k = Math.ceil((t - s.phaseMs) / s.plan.periodMs);
      return tournamentNameOf(s, k);
    };
    assert.match(at(pl, Date.UTC(2026, 8, 1)), /^Premier League 2026-27 /);
    assert.match(at(pl, Date.UTC(2027, 2, 1)), /^Premier League 2026-27 /);
    assert.match(at(pl, Date.UTC(2027, 7, 1)), /^Premier League 2027-28 /);
    assert.match(at(mlb, Date.UTC(2026, 8, 1)), /^MLB 2026 /);
    assert.match(at(mlb, Date.UTC(2027, 2, 1)), /^MLB 2027 /);
  });

  it('two editions of a league never share a name', () => {
    for (const s of series) {
      const names = new Set<string>();
      const k0 = Math.ceil((from - s.phaseMs) / s.plan.periodMs);
      for (let k = k0; editionStart(s, k) < to; k++) {
        const name = tournamentNameOf(s, k);
        assert.ok(!names.has(name), name);
        names.add(name);
      }
    }
  });
});
