// The live console's event page: header, scoreboard and sport data, every market by family with live prices, a price chart, and the result with its settlement as it resolves.
/* global document, window, Chart, getComputedStyle */
(function consoleEvent() {
  'use strict';
  const C = window.SdsConsole;
  const config = C && C.readJson('console-config', null);
  if (!C || !config || config.page !== 'event') return;
  const { el, byId } = C;
  const eventId = config.eventId;
  const FINAL = ['ended', 'cancelled', 'abandoned', 'retired', 'walkover'];
  /** Markets drawn at once when a group opens; more on request (a group can hold hundreds). */
  const PAGE = 50;
  /** At most this many pages of history are drawn (1,000 changes a page). */
  const HISTORY_PAGES = 5;
  const COLORS = ['#0a58ca', '#b42318', '#1a7f37', '#8a5a00', '#6f42c1', '#0f766e', '#c2410c', '#475569'];

  C.connect((ctx) => {
    let stopped = false;
    const ev = {
      home: '',
      away: '',
      sport: '',
      sportName: '',
      league: null,
      status: '',
      start: 0,
      locked: false,
      lockReason: null,
      score: null,
      clock: '',
      period: '',
      periodScores: [],
      sportData: null,
      scoreboard: null,
      homeLogo: '',
      awayLogo: '',
      /** Which fields the stream has told (newer than the REST detail, which must not overwrite them). */
      told: new Set(),
    };
    /** Markets by id; each outcome has its price state ({odds, locked, dir, flash}), opening, closing, result and the cell showing it. */
    const markets = new Map();
    const bySel = new Map();
    const dirtyOutcomes = new Set();

    // ---- header, scoreboard, sport data ----
    function renderHeader() {
      byId('ev-header').removeAttribute('aria-busy');
      if (ev.home) {
        byId('ev-title').textContent = ev.home + ' v ' + ev.away;
        document.title = ev.home + ' v ' + ev.away + ' · Live console';
      }
      byId('ev-home').textContent = ev.home;
      byId('ev-away').textContent = ev.away;
      for (const [id, src] of [
        ['ev-home-logo', ev.homeLogo],
        ['ev-away-logo', ev.awayLogo],
      ]) {
        const img = byId(id);
        if (src && img.getAttribute('src') !== src) img.setAttribute('src', src);
        img.hidden = !src;
      }
      byId('ev-score').textContent = ev.score ? ev.score.home + ' – ' + ev.score.away : 'v';
      const status = byId('ev-status');
      status.textContent = ev.status;
      status.setAttribute('data-status', ev.status);
      byId('ev-clock').textContent = [ev.period, ev.clock].filter(Boolean).join(' ');
      const lock = byId('ev-lock');
      const locked = ev.locked || ev.status === 'suspended' || ev.status === 'interrupted';
      lock.hidden = !locked;
      lock.textContent = locked ? 'Locked' + (ev.lockReason ? ': ' + ev.lockReason.replace(/_/g, ' ') : '') : '';
      byId('ev-league').textContent = [
        ev.sportName || ev.sport,
        ev.league && ev.league.name,
        ev.league && ev.league.country,
      ]
        .filter(Boolean)
        .join(' · ');
      const start = byId('ev-start');
      start.replaceChildren(...(ev.start ? ['Start ', C.timeTag(ev.start)] : []));
      renderScoreboard();
      renderSportData();
    }

    function renderScoreboard() {
      const box = byId('ev-scoreboard');
      let headers = null;
      let home = null;
      let away = null;
      if (ev.scoreboard && Array.isArray(ev.scoreboard.headers) && ev.scoreboard.headers.length > 0) {
        ({ headers, home, away } = ev.scoreboard);
      } else if (ev.periodScores.length > 0) {
        headers = ev.periodScores.map((p) => p.period);
        home = ev.periodScores.map((p) => p.home);
        away = ev.periodScores.map((p) => p.away);
      }
      if (!headers) {
        box.replaceChildren(el('p', { class: 'muted', text: 'No scoreboard yet.' }));
        return;
      }
      const cell = (v) => el('td', { text: v === null || v === undefined ? '' : String(v) });
      box.replaceChildren(
        el(
          'table',
          { class: 'scoreboard', id: 'ev-scoreboard-table' },
          el('caption', { class: 'visually-hidden', text: 'Scoreboard by period' }),
          el(
            'thead',
            null,
            el(
              'tr',
              null,
              el('th', { scope: 'col', text: 'Team' }),
              ...headers.map((h) => el('th', { scope: 'col', text: h })),
            ),
          ),
          el(
            'tbody',
            null,
            el(
              'tr',
              null,
              el('th', { scope: 'row', text: ev.home || 'Home' }),
              ...headers.map((_, i) => cell(home[i])),
            ),
            el(
              'tr',
              null,
              el('th', { scope: 'row', text: ev.away || 'Away' }),
              ...headers.map((_, i) => cell(away[i])),
            ),
          ),
        ),
      );
    }

    function valueText(v) {
      if (v === null || v === undefined || v === '') return '–';
      if (v === true) return 'yes';
      if (v === false) return 'no';
      if (Array.isArray(v)) return v.map(valueText).join(', ');
      if (typeof v === 'object')
        return Object.keys(v)
          .map((k) => k + ' ' + valueText(v[k]))
          .join(', ');
      return String(v);
    }

    function renderSportData() {
      const list = byId('ev-sport-data');
      const data = ev.sportData || {};
      const keys = Object.keys(data);
      if (keys.length === 0) {
        list.replaceChildren(
          el('div', null, el('dt', { text: 'Sport data' }), el('dd', { class: 'muted', text: 'none yet' })),
        );
        return;
      }
      list.replaceChildren(
        ...keys.map((k) =>
          el(
            'div',
            { 'data-key': k },
            el('dt', { text: k.replace(/_/g, ' ') }),
            el('dd', { text: valueText(data[k]) }),
          ),
        ),
      );
    }

    // ---- markets by family: groups render their markets only while open, a page at a time ----
    const marketsBox = byId('ev-markets');
    const groups = new Map();

    function outcomeOf(o, before) {
      const state = before ? before.state : { odds: o.odds, locked: o.is_locked, dir: '', flash: 0 };
      if (before) C.movePrice(state, o.odds, o.is_locked, ctx.format);
      return {
        sid: o.selection_id,
        code: o.code,
        label: o.label,
        state,
        opening: o.opening_odds,
        closing: o.closing_odds,
        result: before ? before.result : null,
        cell: null,
      };
    }

    function groupOf(family) {
      let g = groups.get(family);
      if (!g) {
        const summaryCount = el('span', { class: 'count' });
        const list = el('div', { class: 'mk-list' });
        const more = el('button', { type: 'button', class: 'secondary more' });
        more.hidden = true;
        const details = el(
          'details',
          { class: 'mk-group', 'data-family': family },
          el('summary', null, el('span', { class: 'mk-family', text: C.familyName(family) }), ' ', summaryCount),
          list,
          more,
        );
        g = { family, markets: [], details, list, more, summaryCount, shown: 0 };
        details.addEventListener('toggle', () => (details.open ? drawGroup(g, PAGE) : clearGroup(g)));
        more.addEventListener('click', () => drawGroup(g, g.shown + PAGE));
        groups.set(family, g);
        g.main = C.MAIN_FAMILIES.includes(family);
        if (g.main) {
          marketsBox.prepend(details);
          details.open = true;
        } else marketsBox.append(details);
      }
      return g;
    }

    function marketBlock(m) {
      const items = m.outcomes.map((o) => {
        const cell = el('span', { class: 'price', 'data-selection-id': o.sid });
        o.cell = cell;
        drawOutcome(o);
        return el('li', null, el('span', { class: 'label', text: o.label }), cell);
      });
      return el(
        'div',
        { class: 'mk', 'data-market-id': m.id, 'data-key': m.key },
        el('h3', { class: 'mk-name', text: m.name }),
        el('ul', { class: 'mk-outcomes' }, ...items),
      );
    }

    function drawOutcome(o) {
      if (!o.cell) return;
      if (o.result) {
        o.cell.replaceChildren(el('span', { class: 'result result-' + o.result.result, text: resultText(o.result) }));
        o.cell.setAttribute('data-result', o.result.result);
        return;
      }
      C.showPrice(o.cell, o.state, ctx.format, ev.locked);
    }

    function resultText(r) {
      return (
        r.result +
        (r.void_factor ? ' (' + r.void_factor * 100 + '% refunded)' : '') +
        (r.dead_heat_factor ? ' (dead heat ' + r.dead_heat_factor + ')' : '')
      );
    }

    function drawGroup(g, count) {
      for (const m of g.markets.slice(0, g.shown)) for (const o of m.outcomes) o.cell = null;
      g.shown = Math.min(count, g.markets.length);
      g.list.replaceChildren(...g.markets.slice(0, g.shown).map(marketBlock));
      g.more.hidden = g.shown >= g.markets.length;
      g.more.textContent =
        'Show ' + Math.min(PAGE, g.markets.length - g.shown) + ' more (' + (g.markets.length - g.shown) + ' left)';
    }

    function clearGroup(g) {
      for (const m of g.markets.slice(0, g.shown)) for (const o of m.outcomes) o.cell = null;
      g.list.replaceChildren();
      g.more.hidden = true;
      g.shown = 0;
    }

    function countGroup(g) {
      g.summaryCount.textContent = '(' + g.markets.length + (g.markets.length === 1 ? ' market)' : ' markets)');
    }

    /** Groups whose list changed are drawn again (open ones only), at the next frame. */
    const changedGroups = new Set();

    function upsertMarket(raw) {
      const family = C.familyOf(raw.key);
      const before = markets.get(raw.market_id);
      const prior = new Map(before ? before.outcomes.map((o) => [o.sid, o]) : []);
      const m = {
        id: raw.market_id,
        key: raw.key,
        name: raw.name,
        family,
        outcomes: raw.outcomes.map((o) => outcomeOf(o, prior.get(o.selection_id))),
      };
      for (const o of prior.values()) bySel.delete(o.sid);
      for (const o of m.outcomes) bySel.set(o.sid, { market: m, outcome: o });
      markets.set(m.id, m);
      const g = groupOf(family);
      if (before && before.family === family) g.markets[g.markets.indexOf(before)] = m;
      else {
        if (before) removeFromGroup(before);
        g.markets.push(m);
      }
      changedGroups.add(g);
    }

    function removeFromGroup(m) {
      const g = groups.get(m.family);
      if (!g) return;
      const i = g.markets.indexOf(m);
      if (i >= 0) g.markets.splice(i, 1);
      changedGroups.add(g);
    }

    function withdraw(id) {
      const m = markets.get(id);
      if (!m) return;
      markets.delete(id);
      for (const o of m.outcomes) bySel.delete(o.sid);
      removeFromGroup(m);
    }

    function flushMarkets() {
      for (const g of changedGroups) {
        countGroup(g);
        if (g.markets.length === 0) {
          g.details.remove();
          groups.delete(g.family);
          continue;
        }
        if (g.details.open) drawGroup(g, Math.max(g.shown, PAGE));
      }
      changedGroups.clear();
      updateCards();
      fillChartSelect();
    }

    const schedule = C.frameBatcher(() => {
      if (stopped) return;
      if (changedGroups.size > 0) flushMarkets();
      for (const o of dirtyOutcomes) drawOutcome(o);
      dirtyOutcomes.clear();
    });

    function updateCards() {
      byId('ev-markets-count').textContent = '(' + markets.size + ')';
      // An ended event offers no market: its results are in the settlement above.
      const none = markets.size === 0 && FINAL.includes(ev.status);
      byId('ev-markets-card').hidden = none;
      byId('ev-chart-card').hidden = none;
    }

    function redrawAllCells() {
      for (const m of markets.values()) for (const o of m.outcomes) if (o.cell) dirtyOutcomes.add(o);
      schedule();
    }

    // ---- the chart of one market: its history, then the stream's changes ----
    const chartSelect = byId('ev-chart-market');
    const figure = byId('ev-chart').closest('figure');
    let chart = null;
    let chartMarketId = null;
    /** Datasets by selection id, while the chosen market's history is loaded; changes that come during the load wait. */
    let series = null;
    let waiting = null;
    let historyPoints = 0;
    let livePoints = 0;
    const updateChart = C.throttled(() => {
      if (chart && !stopped) chart.update('none');
      figure.setAttribute('data-history-points', String(historyPoints));
      figure.setAttribute('data-live-points', String(livePoints));
    }, 500);

    function fillChartSelect() {
      const ids = [...markets.keys()];
      if (chartSelect.options.length === ids.length && chartSelect.getAttribute('data-for') === ids.join(',')) return;
      chartSelect.setAttribute('data-for', ids.join(','));
      const main = [...markets.values()].find((m) => C.MAIN_FAMILIES.includes(m.key));
      const chosen = chartMarketId !== null && markets.has(chartMarketId) ? chartMarketId : main ? main.id : ids[0];
      chartSelect.replaceChildren(
        ...[...markets.values()].map((m) =>
          el('option', { value: m.id, text: m.name + ' (' + m.key + ')', selected: m.id === chosen }),
        ),
      );
      if (chosen !== undefined && chosen !== chartMarketId) void loadChart(chosen);
    }

    async function loadChart(marketId) {
      chartMarketId = marketId;
      const m = markets.get(marketId);
      if (!m || typeof Chart === 'undefined') return;
      series = null;
      waiting = [];
      historyPoints = 0;
      livePoints = 0;
      figure.removeAttribute('data-chart-ready');
      const points = new Map(m.outcomes.map((o) => [o.sid, []]));
      let cursor = null;
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const params = { market_id: marketId, limit: 1000, odds_format: 'decimal' };
        if (cursor) params.cursor = cursor;
        let body;
        try {
          body = await ctx.api('/v1/events/' + encodeURIComponent(eventId) + '/odds/history', params);
        } catch (err) {
          figure.setAttribute('data-chart-error', String(err.message));
          return;
        }
        if (stopped || chartMarketId !== marketId) return;
        for (const h of body.history) {
          const list = points.get(h.selection_id);
          if (list) {
            list.push({ x: Date.parse(h.at), y: h.odds });
            historyPoints += 1;
          }
        }
        cursor = body.next_cursor;
        if (!body.has_more || !cursor) break;
      }
      drawChart(m, points);
    }

    function drawChart(m, points) {
      const css = getComputedStyle(document.documentElement);
      Chart.defaults.color = css.getPropertyValue('--muted').trim();
      Chart.defaults.borderColor = css.getPropertyValue('--border').trim();
      const datasets = [];
      series = new Map();
      const opening = [];
      const closing = [];
      m.outcomes.forEach((o, i) => {
        const data = points.get(o.sid) || [];
        series.set(o.sid, data);
        datasets.push({
          label: o.label,
          data,
          borderColor: COLORS[i % COLORS.length],
          backgroundColor: COLORS[i % COLORS.length],
          stepped: true,
          pointRadius: 2,
          borderWidth: 2,
        });
        const first = data[0];
        const open = C.decimalOf(o.opening, ctx.format);
        if (open !== null && first) opening.push({ x: first.x, y: open, label: o.label });
        const close = C.decimalOf(o.closing, ctx.format);
        if (close !== null && ev.start) closing.push({ x: ev.start, y: close, label: o.label });
      });
      datasets.push({
        label: 'Opening prices',
        data: opening,
        showLine: false,
        pointStyle: 'triangle',
        pointRadius: 7,
        borderColor: '#57606a',
        backgroundColor: '#57606a',
      });
      datasets.push({
        label: 'Closing prices',
        data: closing,
        showLine: false,
        pointStyle: 'rectRot',
        pointRadius: 7,
        borderColor: '#ff9f1c',
        backgroundColor: '#ff9f1c',
      });
      if (chart) chart.destroy();
      chart = new Chart(byId('ev-chart'), {
        type: 'line',
        data: { datasets },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          parsing: true,
          normalized: true,
          scales: {
            x: {
              type: 'linear',
              ticks: { callback: (v) => C.hhmm(v), maxTicksLimit: 8 },
              title: { display: true, text: 'Time' },
            },
            y: { title: { display: true, text: 'Decimal odds' } },
          },
          plugins: {
            legend: { position: 'bottom' },
            tooltip: {
              callbacks: {
                title: (items) => (items.length ? new Date(items[0].parsed.x).toLocaleTimeString() : ''),
              },
            },
          },
        },
      });
      for (const w of waiting) appendLive(w.sid, w.odds);
      waiting = null;
      byId('ev-chart').setAttribute(
        'aria-label',
        'Price history of ' + m.name + ': ' + historyPoints + ' changes, then live ones',
      );
      figure.setAttribute('data-chart-ready', 'true');
      updateChart();
    }

    function appendLive(sid, odds) {
      const data = series && series.get(sid);
      if (!data) return;
      const y = C.decimalOf(odds, ctx.format);
      if (y === null) return;
      data.push({ x: C.world.now(), y });
      livePoints += 1;
      updateChart();
    }

    chartSelect.addEventListener('change', () => void loadChart(Number(chartSelect.value)));

    // ---- result and settlement ----
    const settledByMarket = new Map();
    let settlement = { revision: -1, resolved: 0, total: null, pending: null };
    let resultAsked = false;
    const settledBox = byId('ev-settled-groups');
    const settledGroups = new Map();
    let resultRevision = -1;

    function showResult(r) {
      if (!r || r.status === 'not_ended') return;
      if (typeof r.revision === 'number' && r.revision < resultRevision) return;
      if (typeof r.revision === 'number') resultRevision = r.revision;
      const section = byId('ev-result');
      section.hidden = false;
      section.setAttribute('data-status', r.status);
      const parts = [r.status === 'ended' ? 'Final score ' : 'Final status ' + r.status + ', score '];
      parts.push(r.score.home + ' – ' + r.score.away);
      if (r.winner)
        parts.push(', winner ' + (r.winner === 'home' ? ev.home : r.winner === 'away' ? ev.away : r.winner));
      if (r.period_scores && r.period_scores.length)
        parts.push(' (' + r.period_scores.map((p) => p.period + ' ' + p.home + '–' + p.away).join(', ') + ')');
      byId('ev-result-text').replaceChildren(
        ...parts,
        ...(r.ended_at ? ['. Ended ', C.timeTag(Date.parse(r.ended_at)), '.'] : ['.']),
      );
      ev.score = r.score;
      if (r.period_scores) ev.periodScores = r.period_scores;
      renderHeader();
    }

    function mergeSettlement(s) {
      if (typeof s.revision === 'number' && s.revision >= settlement.revision) {
        settlement = {
          revision: s.revision,
          resolved: s.resolved_markets_count,
          total: s.total_markets_count,
          pending: s.pending_markets_count,
        };
      }
      for (const rm of s.resolved_markets || []) {
        const id = rm.market_id === null || rm.market_id === undefined ? rm.key : rm.market_id;
        settledByMarket.set(id, rm);
        for (const o of rm.outcomes) {
          const entry = o.selection_id === null || o.selection_id === undefined ? null : bySel.get(o.selection_id);
          if (entry) {
            entry.outcome.result = o;
            if (entry.outcome.cell) dirtyOutcomes.add(entry.outcome);
          }
        }
        const g = settledGroupOf(C.familyOf(rm.key));
        const i = g.items.findIndex((x) => (x.market_id ?? x.key) === id);
        if (i >= 0) g.items[i] = rm;
        else g.items.push(rm);
        g.dirty = true;
      }
      byId('ev-result').hidden = false;
      drawSettlement();
      schedule();
    }

    function settledGroupOf(family) {
      let g = settledGroups.get(family);
      if (!g) {
        const count = el('span', { class: 'count' });
        const list = el('div', { class: 'mk-list' });
        const details = el(
          'details',
          { class: 'mk-group', 'data-family': family },
          el('summary', null, el('span', { class: 'mk-family', text: C.familyName(family) }), ' ', count),
          list,
        );
        g = { family, items: [], details, list, count, dirty: true };
        details.addEventListener('toggle', () => {
          if (details.open) drawSettledGroup(g);
          else list.replaceChildren();
        });
        settledGroups.set(family, g);
        if (C.MAIN_FAMILIES.includes(family)) {
          settledBox.prepend(details);
          details.open = true;
        } else settledBox.append(details);
      }
      return g;
    }

    function drawSettledGroup(g) {
      g.dirty = false;
      g.list.replaceChildren(
        ...g.items
          .slice(0, 200)
          .map((rm) =>
            el(
              'div',
              { class: 'mk', 'data-market-id': rm.market_id, 'data-key': rm.key },
              el('h3', { class: 'mk-name', text: rm.name }),
              el(
                'ul',
                { class: 'mk-outcomes' },
                ...rm.outcomes.map((o) =>
                  el(
                    'li',
                    null,
                    el('span', { class: 'label', text: o.label }),
                    el(
                      'span',
                      { class: 'price', 'data-result': o.result },
                      el('span', { class: 'result result-' + o.result, text: resultText(o) }),
                    ),
                  ),
                ),
              ),
            ),
          ),
      );
    }

    function drawSettlement() {
      const section = byId('ev-result');
      const total = settlement.total;
      section.setAttribute('data-resolved', String(settlement.resolved));
      section.setAttribute('data-pending', String(settlement.pending));
      const bar = byId('ev-settle-bar');
      bar.max = Math.max(1, total || settlement.resolved || 1);
      bar.value = settlement.resolved;
      byId('ev-settle-text').textContent =
        settlement.revision < 0
          ? 'Settlement has not started.'
          : settlement.resolved +
            ' market' +
            (settlement.resolved === 1 ? '' : 's') +
            ' resolved' +
            (settlement.pending === null ? '' : ', ' + settlement.pending + ' pending') +
            (settlement.pending === 0 ? ': fully settled.' : '.');
      for (const g of settledGroups.values()) {
        g.count.textContent = '(' + g.items.length + ' resolved)';
        if (g.dirty && g.details.open) drawSettledGroup(g);
      }
    }

    async function askResult() {
      if (resultAsked) return;
      resultAsked = true;
      try {
        const [result, feed] = await Promise.all([
          ctx.api('/v1/events/' + encodeURIComponent(eventId) + '/result'),
          ctx.api('/v1/settlements', { event_id: eventId }),
        ]);
        if (stopped) return;
        showResult(result);
        for (const s of feed.settlements) if (s.event_id === eventId) mergeSettlement(s);
      } catch (err) {
        showError(err);
      }
    }

    // ---- the stream ----
    function applyScore(d) {
      ev.score = d.score;
      ev.clock = d.clock || '';
      ev.period = d.period || '';
      ev.periodScores = d.period_scores || [];
      ev.sportData = d.sport_data;
      ev.scoreboard = d.scoreboard;
      ev.told.add('score');
    }

    const on = {
      status(d) {
        Object.assign(ev, {
          home: d.home_team,
          away: d.away_team,
          sport: d.sport,
          league: d.league,
          status: d.status,
          start: Date.parse(d.start_time),
          locked: d.is_locked === true,
          lockReason: d.lock_reason,
        });
        ev.told.add('status');
        renderHeader();
        updateCards();
        redrawAllCells();
        if (FINAL.includes(d.status)) void askResult();
      },
      score(d) {
        applyScore(d);
        renderHeader();
      },
      markets(d) {
        if (d.snapshot) {
          const keep = new Set(d.added.map((m) => m.market_id));
          for (const id of [...markets.keys()]) if (!keep.has(id)) withdraw(id);
        }
        for (const id of d.withdrawn) withdraw(id);
        for (const m of d.added) upsertMarket(m);
        schedule();
      },
      odds(d) {
        for (const c of d.changes) {
          const entry = bySel.get(c.selection_id);
          if (!entry) continue;
          const before = entry.outcome.state.odds;
          C.movePrice(entry.outcome.state, c.odds, c.is_locked, ctx.format);
          if (entry.outcome.cell) dirtyOutcomes.add(entry.outcome);
          if (c.market_id === chartMarketId && String(c.odds) !== String(before)) {
            if (waiting) waiting.push({ sid: c.selection_id, odds: c.odds });
            else appendLive(c.selection_id, c.odds);
          }
        }
        schedule();
      },
      result(d) {
        ev.status = d.status;
        renderHeader();
        showResult(d);
        void askResult();
      },
      settlement(d) {
        mergeSettlement(d);
      },
      snapshot_required() {
        // The snapshot that follows brings the markets back; the detail, result and settlement are asked again.
        resultAsked = false;
        void fetchDetail();
      },
    };

    function showError(err) {
      ctx.setStatus('error', 'The API refused a request: ' + (err instanceof Error ? err.message : String(err)));
    }

    /** Logos, the sport's name and the start time come from the detail (the stream's events do not carry them). */
    async function fetchDetail() {
      let d;
      try {
        d = await ctx.api('/v1/events/' + encodeURIComponent(eventId), { odds_format: ctx.format });
      } catch (err) {
        if (err.status === 404) {
          byId('ev-title').textContent = 'No such event';
          byId('ev-header').removeAttribute('aria-busy');
          ctx.setStatus('error', 'This event is not known to the service (it may have been archived): ' + err.message);
          stream.close();
          return;
        }
        showError(err);
        return;
      }
      if (stopped) return;
      ev.homeLogo = d.home_logo;
      ev.awayLogo = d.away_logo;
      ev.sportName = d.sport.name;
      if (!ev.told.has('status')) {
        Object.assign(ev, {
          home: d.home_team,
          away: d.away_team,
          sport: d.sport.key,
          league: d.league,
          status: d.status,
          start: Date.parse(d.commence_time || d.start_time),
        });
      }
      if (!ev.told.has('score') && d.status !== 'prematch') {
        applyScore({ ...d, period_scores: d.period_scores });
        ev.told.delete('score');
      }
      renderHeader();
      updateCards();
      if (FINAL.includes(d.status)) void askResult();
    }

    const stream = ctx.stream({ event_ids: eventId, snapshot: 'true', odds_format: ctx.format }, config.events, on);
    void fetchDetail();
    renderSportData();

    return () => {
      stopped = true;
      stream.close();
      if (chart) chart.destroy();
      chart = null;
      marketsBox.replaceChildren();
      settledBox.replaceChildren();
    };
  });
})();
