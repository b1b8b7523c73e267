// The live console's board: live events by sport and league with their main market's prices moving in place, the next kick-offs and the games just ended.
/* global document, window, setInterval, clearInterval, URLSearchParams */
(function consoleBoard() {
  'use strict';
  const C = window.SdsConsole;
  const config = C && C.readJson('console-config', null);
  if (!C || !config || config.page !== 'board') return;
  const { el, byId } = C;

  const FINAL = ['ended', 'cancelled', 'abandoned', 'retired', 'walkover'];
  const sections = {
    live: { box: byId('board-live'), count: byId('board-live-count'), empty: 'No live event matches.' },
    soon: { box: byId('board-soon'), count: byId('board-soon-count'), empty: 'No kick-off in this window.' },
    ended: { box: byId('board-ended'), count: byId('board-ended-count'), empty: 'No game ended in this window.' },
  };
  const sportSelect = byId('board-sport');
  const leagueSelect = byId('board-league');
  const initial = new URLSearchParams(window.location.search);
  let sportFilter = initial.get('sport') || '';
  let leagueFilter = initial.get('league') || '';

  C.connect((ctx) => {
    /** Every event the board knows, by id: fixture facts, status, lock, score, clock, the main market. */
    const events = new Map();
    /** Logos and end times from the REST lists (the stream's events carry neither). */
    const logos = new Map();
    const sportNames = new Map();
    /** The rows on screen, by event id, for updates in place. */
    const rows = new Map();
    const dirtyPrices = new Set();
    let structureDirty = true;
    let stopped = false;
    let lastListFetch = 0;

    function eventOf(id) {
      let ev = events.get(id);
      if (!ev) {
        ev = {
          id,
          sport: '',
          league: null,
          home: '',
          away: '',
          status: '',
          start: 0,
          score: null,
          clock: '',
          period: '',
          locked: false,
          lockReason: null,
          main: null,
          endedAt: 0,
        };
        events.set(id, ev);
      }
      return ev;
    }

    function fromListItem(item) {
      logos.set(item.id, { home: item.home_logo, away: item.away_logo });
      if (item.sport && item.sport.name) sportNames.set(item.sport.key, item.sport.name);
      const ev = eventOf(item.id);
      if (ev.home === '') {
        // Only what the stream has not told yet: the stream is newer than a list fetched before it.
        Object.assign(ev, {
          sport: item.sport.key,
          league: item.league,
          home: item.home_team,
          away: item.away_team,
          status: item.status,
          start: Date.parse(item.start_time),
          score: item.status === 'prematch' ? null : item.score,
          clock: item.clock || '',
          period: item.period || '',
        });
      }
    }

    /** The lists that carry logos: live events, the next kick-offs, recent settlements (with their end times). */
    async function fetchLists() {
      lastListFetch = Date.now();
      const format = { odds_format: ctx.format };
      // Four requests at once: within a free key's 5 a second, with the stream.
      const [live, soon, settled] = await Promise.all([
        ctx.api('/v1/live', { limit: 200, ...format }),
        ctx.api('/v1/events', { status: 'prematch', starts_within: config.soonHours + 'h', limit: 200, ...format }),
        ctx.api('/v1/settlements', { limit: 50 }),
      ]);
      if (stopped) return;
      for (const item of live.events) fromListItem(item);
      for (const item of soon.events) fromListItem(item);
      for (const s of settled.settlements) {
        logos.set(s.event_id, { home: s.home_logo, away: s.away_logo });
        const ev = events.get(s.event_id);
        if (ev && !ev.endedAt) ev.endedAt = Date.parse(s.ended_at);
        if (ev && !ev.score) ev.score = s.final_score;
      }
      structureDirty = true;
      schedule();
    }

    /** Events shown without a logo: fetch the lists again, at most every 30 s. */
    function maybeFetchLogos() {
      if (Date.now() - lastListFetch < 30000) return;
      lastListFetch = Date.now();
      void fetchLists().catch(() => undefined);
    }

    // ---- stream handlers ----
    const on = {
      status(d) {
        const ev = eventOf(d.event_id);
        const wasStatus = ev.status;
        const wasIn = sectionOf(ev, C.world.now());
        Object.assign(ev, {
          sport: d.sport,
          league: d.league,
          home: d.home_team,
          away: d.away_team,
          status: d.status,
          start: Date.parse(d.start_time),
          locked: d.is_locked === true,
          lockReason: d.lock_reason,
        });
        if (FINAL.includes(d.status) && !ev.endedAt) ev.endedAt = Date.parse(d.updated_at);
        const isIn = sectionOf(ev, C.world.now());
        // Only what shows on the board is drawn again: most events of a big world are far off.
        if (wasIn !== isIn || (isIn !== null && (wasStatus !== d.status || !rows.has(d.event_id))))
          structureDirty = true;
        else if (rows.has(d.event_id)) dirtyPrices.add(d.event_id);
        schedule();
      },
      score(d) {
        const ev = eventOf(d.event_id);
        ev.score = d.score;
        ev.clock = d.clock || '';
        ev.period = d.period || '';
        if (rows.has(d.event_id)) dirtyPrices.add(d.event_id);
        schedule();
      },
      markets(d) {
        const ev = eventOf(d.event_id);
        if (ev.main && d.withdrawn.includes(ev.main.marketId)) ev.main = null;
        const main = d.added.find((m) => C.MAIN_FAMILIES.includes(C.familyOf(m.key)) && !m.key.includes('@'));
        if (main) {
          const before = ev.main && ev.main.marketId === main.market_id ? ev.main.bySel : new Map();
          const outcomes = main.outcomes.map((o) => {
            const state = before.get(o.selection_id) || { odds: o.odds, locked: o.is_locked, dir: '', flash: 0 };
            C.movePrice(state, o.odds, o.is_locked, ctx.format);
            return { sid: o.selection_id, code: o.code, label: o.label, state };
          });
          ev.main = { marketId: main.market_id, outcomes, bySel: new Map(outcomes.map((o) => [o.sid, o.state])) };
        }
        if (rows.has(d.event_id)) dirtyPrices.add(d.event_id);
        else if (sectionOf(ev, C.world.now()) !== null) structureDirty = true;
        schedule();
      },
      odds(d) {
        const ev = events.get(d.event_id);
        if (!ev || !ev.main) return;
        let moved = false;
        for (const c of d.changes) {
          if (c.market_id !== ev.main.marketId) continue;
          const state = ev.main.bySel.get(c.selection_id);
          if (!state) continue;
          C.movePrice(state, c.odds, c.is_locked, ctx.format);
          moved = true;
        }
        if (moved && rows.has(d.event_id)) {
          dirtyPrices.add(d.event_id);
          schedule();
        }
      },
      result(d) {
        const ev = eventOf(d.event_id);
        ev.status = d.status;
        ev.score = d.score;
        ev.endedAt = Date.parse(d.ended_at || '') || C.world.now();
        ev.main = null;
        structureDirty = true;
        schedule();
      },
      snapshot_required() {
        // The service could not resume exactly: forget what we hold, the snapshot that follows rebuilds it.
        events.clear();
        structureDirty = true;
        schedule();
        void fetchLists().catch(showError);
      },
    };

    // ---- rendering ----
    function sectionOf(ev, now) {
      if (!ev.home) return null;
      if (ev.status === 'live' || ev.status === 'suspended' || ev.status === 'interrupted') return 'live';
      if (ev.status === 'prematch' || ev.status === 'delayed' || ev.status === 'postponed') {
        return ev.start - now <= config.soonHours * 3600000 ? 'soon' : null;
      }
      if (ev.endedAt && now - ev.endedAt <= config.endedMinutes * 60000) return 'ended';
      return null;
    }

    function matches(ev) {
      return (
        (!sportFilter || ev.sport === sportFilter) && (!leagueFilter || (ev.league && ev.league.slug === leagueFilter))
      );
    }

    /** The sport's name from the lists (the stream's events carry its key only). */
    function sportName(key) {
      return sportNames.get(key) || C.familyName(key);
    }

    function priceCells(ev) {
      const cells = new Map();
      const box = el('span', { class: 'prices' });
      if (ev.main) {
        for (const o of ev.main.outcomes) {
          const cell = el('span', { class: 'price', 'data-selection-id': o.sid });
          C.showPrice(cell, o.state, ctx.format, ev.locked);
          cells.set(o.sid, cell);
          box.append(el('span', { class: 'outcome' }, el('span', { class: 'label', text: shortLabel(o, ev) }), cell));
        }
      } else if (ev.status === 'live' || ev.status === 'prematch') {
        box.append(el('span', { class: 'muted', text: 'no main market' }));
      }
      return { box, cells };
    }

    function shortLabel(o, ev) {
      if (o.code === 'home') return '1';
      if (o.code === 'draw') return 'X';
      if (o.code === 'away') return '2';
      return o.label || (o.code === ev.home ? '1' : o.code);
    }

    function scoreText(ev) {
      return ev.score ? ev.score.home + ' – ' + ev.score.away : '';
    }

    function clockText(ev, section) {
      if (section === 'soon') return C.when(ev.start);
      if (section === 'ended') return ev.status === 'ended' ? 'FT' : ev.status;
      return [ev.period, ev.clock].filter(Boolean).join(' ') || ev.status;
    }

    function lockText(ev) {
      if (!ev.locked && ev.status !== 'suspended' && ev.status !== 'interrupted') return '';
      return 'Locked' + (ev.lockReason ? ': ' + ev.lockReason.replace(/_/g, ' ') : '');
    }

    function rowOf(ev, section) {
      const logo = logos.get(ev.id);
      const { box, cells } = priceCells(ev);
      const score = el('span', { class: 'score', text: scoreText(ev) });
      const clock = el('span', { class: 'clock', text: clockText(ev, section) });
      const lock = el('span', { class: 'lock-badge', text: lockText(ev) });
      lock.hidden = lock.textContent === '';
      const link = el(
        'a',
        { class: 'teams', href: ctx.link('/portal/console/events/' + encodeURIComponent(ev.id)) },
        el('span', { class: 'team' }, C.logoImg(logo && logo.home), el('span', { text: ev.home })),
        el('span', { class: 'team' }, C.logoImg(logo && logo.away), el('span', { text: ev.away })),
      );
      const row = el(
        'li',
        { class: 'ev-row', 'data-event-id': ev.id, 'data-section': section },
        link,
        score,
        clock,
        box,
        lock,
      );
      rows.set(ev.id, { row, cells, score, clock, lock, section, main: ev.main });
      return row;
    }

    /** Updates the changed rows in place: prices (with their flash), score, clock, lock. */
    function updateRows() {
      for (const id of dirtyPrices) {
        const r = rows.get(id);
        const ev = events.get(id);
        if (!r || !ev) continue;
        if (r.main !== ev.main) {
          structureDirty = true;
          continue;
        }
        if (ev.main) {
          for (const o of ev.main.outcomes) {
            const cell = r.cells.get(o.sid);
            if (cell) C.showPrice(cell, o.state, ctx.format, ev.locked);
          }
        }
        r.score.textContent = scoreText(ev);
        r.clock.textContent = clockText(ev, r.section);
        r.lock.textContent = lockText(ev);
        r.lock.hidden = r.lock.textContent === '';
        r.row.classList.toggle('is-locked', r.lock.textContent !== '');
      }
      dirtyPrices.clear();
    }

    function fillFilters(all) {
      const sports = new Map();
      const leagues = new Map();
      for (const ev of all) {
        sports.set(ev.sport, (sports.get(ev.sport) || 0) + 1);
        if (ev.league && (!sportFilter || ev.sport === sportFilter)) leagues.set(ev.league.slug, ev.league);
      }
      const sportOptions = [el('option', { value: '', text: 'All sports' })];
      for (const [key, n] of [...sports].sort((a, b) => sportName(a[0]).localeCompare(sportName(b[0])))) {
        sportOptions.push(
          el('option', { value: key, text: sportName(key) + ' (' + n + ')', selected: key === sportFilter }),
        );
      }
      if (sportFilter && !sports.has(sportFilter)) {
        sportOptions.push(el('option', { value: sportFilter, text: sportName(sportFilter) + ' (0)', selected: true }));
      }
      sportSelect.replaceChildren(...sportOptions);
      const leagueOptions = [el('option', { value: '', text: 'All leagues' })];
      for (const l of [...leagues.values()].sort((a, b) => a.name.localeCompare(b.name))) {
        leagueOptions.push(
          el('option', {
            value: l.slug,
            text: l.name + (l.country ? ' (' + l.country + ')' : ''),
            selected: l.slug === leagueFilter,
          }),
        );
      }
      if (leagueFilter && !leagues.has(leagueFilter)) {
        leagueOptions.push(el('option', { value: leagueFilter, text: leagueFilter, selected: true }));
      }
      leagueSelect.replaceChildren(...leagueOptions);
    }

    function renderAll() {
      const now = C.world.now();
      const buckets = { live: [], soon: [], ended: [] };
      const shown = [];
      let missingLogo = false;
      for (const ev of events.values()) {
        const section = sectionOf(ev, now);
        if (section === null) continue;
        shown.push(ev);
        if (matches(ev)) buckets[section].push({ ev, section });
      }
      fillFilters(shown);
      // Keyboard focus on a row's link survives the redraw.
      const focused =
        document.activeElement && document.activeElement.closest ? document.activeElement.closest('.ev-row') : null;
      const focusedId = focused ? focused.getAttribute('data-event-id') : null;
      rows.clear();
      for (const name of Object.keys(sections)) {
        const s = sections[name];
        const list = buckets[name].sort((a, b) =>
          name === 'ended' ? b.ev.endedAt - a.ev.endedAt : a.ev.start - b.ev.start || a.ev.id.localeCompare(b.ev.id),
        );
        s.count.textContent = '(' + list.length + ')';
        if (list.length === 0) {
          s.box.replaceChildren(el('p', { class: 'muted', text: s.empty }));
          continue;
        }
        const bySport = new Map();
        for (const item of list) {
          const sport = bySport.get(item.ev.sport) || new Map();
          bySport.set(item.ev.sport, sport);
          const slug = item.ev.league ? item.ev.league.slug : '';
          if (!sport.has(slug)) sport.set(slug, { league: item.ev.league, items: [] });
          sport.get(slug).items.push(item);
          if (!logos.has(item.ev.id)) missingLogo = true;
        }
        const groups = [];
        for (const key of [...bySport.keys()].sort((a, b) => sportName(a).localeCompare(sportName(b)))) {
          const leagues = [...bySport.get(key).values()].sort((a, b) =>
            (a.league ? a.league.name : '').localeCompare(b.league ? b.league.name : ''),
          );
          groups.push(
            el(
              'section',
              { class: 'sport-group', 'data-sport': key, 'aria-label': sportName(key) },
              el('h3', { class: 'sport-name', text: sportName(key) }),
              ...leagues.map((l) =>
                el(
                  'div',
                  { class: 'league-group', 'data-league': l.league ? l.league.slug : '' },
                  el('h4', {
                    class: 'league-name',
                    text: l.league ? l.league.name + (l.league.country ? ' · ' + l.league.country : '') : 'Other',
                  }),
                  el('ul', { class: 'ev-rows' }, ...l.items.map((item) => rowOf(item.ev, item.section))),
                ),
              ),
            ),
          );
        }
        s.box.replaceChildren(...groups);
      }
      const again = focusedId === null ? null : rows.get(focusedId);
      if (again) again.row.querySelector('a').focus();
      if (missingLogo) maybeFetchLogos();
    }

    const schedule = C.frameBatcher(() => {
      if (stopped) return;
      if (structureDirty) {
        structureDirty = false;
        dirtyPrices.clear();
        renderAll();
        return;
      }
      updateRows();
      // A row whose main market was replaced is drawn again.
      if (structureDirty) schedule();
    });

    function showError(err) {
      ctx.setStatus('error', 'The API refused a request: ' + (err instanceof Error ? err.message : String(err)));
    }

    function onFilter() {
      sportFilter = sportSelect.value;
      leagueFilter = leagueSelect.value;
      const url = new window.URL(window.location.href);
      for (const [k, v] of [
        ['sport', sportFilter],
        ['league', leagueFilter],
      ]) {
        if (v) url.searchParams.set(k, v);
        else url.searchParams.delete(k);
      }
      window.history.replaceState(null, '', url.pathname + '?' + url.searchParams.toString());
      structureDirty = true;
      schedule();
    }
    const onSport = () => {
      leagueSelect.value = '';
      onFilter();
    };
    sportSelect.addEventListener('change', onSport);
    leagueSelect.addEventListener('change', onFilter);

    // Open the stream first (its snapshot is the board's state), then fetch the lists for logos and end times.
    const stream = ctx.stream(
      {
        snapshot: 'true',
        types: 'status,score,markets,odds,result',
        markets: C.MAIN_FAMILIES.join(','),
        odds_format: ctx.format,
      },
      config.events,
      on,
    );
    void fetchLists().catch(showError);
    // Kick-offs and ended games move between sections as time passes.
    const tick = setInterval(() => {
      structureDirty = true;
      schedule();
    }, 30000);

    return () => {
      stopped = true;
      clearInterval(tick);
      stream.close();
      sportSelect.removeEventListener('change', onSport);
      leagueSelect.removeEventListener('change', onFilter);
    };
  });
})();
