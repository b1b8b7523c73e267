// The live console's settlement feed: GET /v1/settlements, then the stream's settlement events as markets resolve, with resolved and pending counts.
/* global window, setTimeout */
(function consoleSettlements() {
  'use strict';
  const C = window.SdsConsole;
  const config = C && C.readJson('console-config', null);
  if (!C || !config || config.page !== 'settlements') return;
  const { el, byId } = C;
  /** Entries kept on screen, newest first. */
  const MAX = 200;
  const list = byId('st-list');

  C.connect((ctx) => {
    let stopped = false;
    /** Entries by event id: the feed's entry, its resolved markets by market (id or key), and its row. */
    const entries = new Map();
    let total = 0;
    /** Stream events that came before the first page: applied after it, in order. */
    let early = [];
    /** Events the stream settled that the page has no entry for yet: fetched together. */
    const missing = new Set();
    let fetching = false;

    function keyOf(rm) {
      return rm.market_id === null || rm.market_id === undefined ? rm.key : rm.market_id;
    }

    function upsertEntry(s) {
      let e = entries.get(s.event_id);
      if (!e) {
        e = { entry: s, resolved: new Map(), row: null, open: false };
        entries.set(s.event_id, e);
        total += 1;
      } else if ((s.revision ?? 0) >= (e.entry.revision ?? 0)) {
        e.entry = { ...e.entry, ...s, resolved_markets: undefined };
      }
      for (const rm of s.resolved_markets || []) e.resolved.set(keyOf(rm), rm);
      return e;
    }

    /** A settlement event: new counts and the markets just resolved. */
    function applyEvent(d) {
      const e = entries.get(d.event_id);
      if (!e) {
        missing.add(d.event_id);
        void fetchMissing();
        return;
      }
      if ((d.revision ?? 0) >= (e.entry.revision ?? 0)) {
        Object.assign(e.entry, {
          revision: d.revision,
          resolved_markets_count: d.resolved_markets_count,
          total_markets_count: d.total_markets_count,
          pending_markets_count: d.pending_markets_count,
        });
      }
      for (const rm of d.resolved_markets || []) e.resolved.set(keyOf(rm), rm);
      drawRow(e);
      drawStats();
    }

    async function fetchMissing() {
      if (fetching || missing.size === 0) return;
      fetching = true;
      const ids = [...missing].slice(0, 50);
      for (const id of ids) missing.delete(id);
      try {
        const page = await ctx.api('/v1/settlements', { event_ids: ids.join(','), limit: 50 });
        if (stopped) return;
        for (const s of page.settlements) {
          const known = entries.has(s.event_id);
          const e = upsertEntry(s);
          if (!known) placeNew(e);
          drawRow(e);
        }
        drawStats();
      } catch (err) {
        showError(err);
      } finally {
        fetching = false;
        if (missing.size > 0) setTimeout(() => void fetchMissing(), 300);
      }
    }

    function placeNew(e) {
      const row = rowOf(e);
      // Newest first: before the first entry that ended earlier.
      const endedAt = Date.parse(e.entry.ended_at);
      let before = null;
      for (const li of list.children) {
        if (Number(li.getAttribute('data-ended-at')) < endedAt) {
          before = li;
          break;
        }
      }
      list.insertBefore(row, before);
      while (list.children.length > MAX) {
        const last = list.lastElementChild;
        entries.delete(last.getAttribute('data-event-id'));
        last.remove();
      }
    }

    function rowOf(e) {
      const s = e.entry;
      const counts = el('p', { class: 'st-counts' });
      const bar = el('progress', { max: 1, value: 0, 'aria-label': 'Markets resolved' });
      const markets = el('div', { class: 'mk-list' });
      const details = el('details', { class: 'st-markets' }, el('summary', { text: 'Resolved markets' }), markets);
      details.addEventListener('toggle', () => {
        e.open = details.open;
        if (details.open) drawMarkets(e);
        else markets.replaceChildren();
      });
      const when = s.ended_at ? C.timeTag(Date.parse(s.ended_at)) : '';
      const li = el(
        'li',
        { class: 'st-entry', 'data-event-id': s.event_id, 'data-ended-at': Date.parse(s.ended_at) || 0 },
        el(
          'div',
          { class: 'st-head' },
          el(
            'a',
            { class: 'teams', href: ctx.link('/portal/console/events/' + encodeURIComponent(s.event_id)) },
            el('span', { class: 'team' }, C.logoImg(s.home_logo), el('span', { text: s.home_team })),
            el('span', { class: 'team' }, C.logoImg(s.away_logo), el('span', { text: s.away_team })),
          ),
          el('span', { class: 'score', text: s.final_score ? s.final_score.home + ' – ' + s.final_score.away : '' }),
          el(
            'span',
            { class: 'muted' },
            [s.league, s.country].filter(Boolean).join(' · ') + (when ? ' · ended ' : ''),
            when,
          ),
        ),
        el('div', { class: 'st-progress' }, bar, counts),
        details,
      );
      e.row = { li, counts, bar, markets, details };
      return li;
    }

    function drawRow(e) {
      if (!e.row) return;
      const s = e.entry;
      const resolved = s.resolved_markets_count ?? e.resolved.size;
      const totalMarkets = s.total_markets_count;
      const pending = s.pending_markets_count;
      e.row.li.setAttribute('data-resolved', String(resolved));
      e.row.li.setAttribute('data-pending', String(pending));
      e.row.bar.max = Math.max(1, totalMarkets || resolved || 1);
      e.row.bar.value = resolved;
      e.row.counts.textContent =
        resolved +
        ' resolved' +
        (pending === null || pending === undefined ? '' : ', ' + pending + ' pending') +
        (pending === 0 ? ' · fully settled' : '');
      e.row.li.classList.toggle('settled', pending === 0);
      if (e.open) drawMarkets(e);
    }

    function drawMarkets(e) {
      const items = [...e.resolved.values()].slice(0, 300);
      e.row.markets.replaceChildren(
        ...items.map((rm) =>
          el(
            'div',
            { class: 'mk', 'data-key': rm.key },
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
                    el('span', { class: 'result result-' + o.result, text: o.result }),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    }

    function drawStats() {
      let full = 0;
      let resolved = 0;
      let pending = 0;
      for (const e of entries.values()) {
        if (e.entry.pending_markets_count === 0) full += 1;
        resolved += e.entry.resolved_markets_count || 0;
        pending += e.entry.pending_markets_count || 0;
      }
      byId('st-entries').textContent = String(Math.max(total, entries.size));
      byId('st-full').textContent = String(full);
      byId('st-resolved').textContent = String(resolved);
      byId('st-pending').textContent = String(pending);
      list.setAttribute('data-entries', String(entries.size));
    }

    function showError(err) {
      ctx.setStatus('error', 'The API refused a request: ' + (err instanceof Error ? err.message : String(err)));
    }

    // The stream first (its events wait until the first page is in), then the first page.
    /** The first page of the feed: every entry on it is placed (or updated), then the stream's events that waited. */
    function firstPage() {
      return ctx
        .api('/v1/settlements', { limit: 50 })
        .then((page) => {
          if (stopped) return;
          for (const s of page.settlements) {
            const known = entries.has(s.event_id);
            const e = upsertEntry(s);
            if (!known) placeNew(e);
            drawRow(e);
          }
          total = Math.max(page.total, entries.size);
          const queued = early || [];
          early = null;
          for (const d of queued) applyEvent(d);
          drawStats();
          list.toggleAttribute('data-empty', entries.size === 0);
        })
        .catch(showError);
    }

    const stream = ctx.stream({ types: 'settlement' }, config.events, {
      settlement(d) {
        if (early) early.push(d);
        else applyEvent(d);
      },
      snapshot_required() {
        // The service could not resume exactly: what was missed is in the feed itself.
        early = [];
        void firstPage();
      },
    });
    list.replaceChildren();
    void firstPage();

    return () => {
      stopped = true;
      stream.close();
    };
  });
})();
