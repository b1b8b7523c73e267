// The live console's shared script: the key bar, API requests, the stream (EventSource, resumed exactly), odds formats, the world clock, DOM helpers. No build step.
/* global document, window, sessionStorage, fetch, performance, requestAnimationFrame, setTimeout, clearTimeout, URLSearchParams, EventSource, AbortController */
(function consoleCommon() {
  'use strict';

  /** The explorer's storage of secrets (portal.js): a secret pasted in either page serves both. */
  const SECRET_PREFIX = 'sds-portal-secret:';

  function byId(id) {
    return document.getElementById(id);
  }

  /** A DOM element: el('td', {class: 'x', text: 'y', 'data-id': 1}, child…); null, undefined and false are skipped. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const name of Object.keys(attrs)) {
        const v = attrs[name];
        if (v === null || v === undefined || v === false) continue;
        if (name === 'class') node.className = v;
        else if (name === 'text') node.textContent = v;
        else node.setAttribute(name, v === true ? '' : String(v));
      }
    }
    for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }

  function readJson(id, fallback) {
    const node = byId(id);
    try {
      return node ? JSON.parse(node.textContent || '') : fallback;
    } catch {
      return fallback;
    }
  }

  function remember(keyId, secret) {
    try {
      if (secret) sessionStorage.setItem(SECRET_PREFIX + keyId, secret);
    } catch {
      // Storage may be disabled: the secret is pasted again after a reload.
    }
  }

  function recall(keyId) {
    try {
      return sessionStorage.getItem(SECRET_PREFIX + keyId) || '';
    } catch {
      return '';
    }
  }

  // ---- odds formats ----

  /** An odds value as shown: decimal with 2 decimals, american with its sign, fractional as it came. */
  function formatOdds(value, format) {
    if (value === null || value === undefined) return '–';
    if (format === 'american') {
      const n = Number(value);
      return n > 0 ? '+' + n : String(n);
    }
    if (format === 'fractional') return String(value);
    return Number(value).toFixed(2);
  }

  /** The decimal price of an odds value in any format (for comparing moves and for the chart). */
  function decimalOf(value, format) {
    if (value === null || value === undefined) return null;
    if (format === 'fractional' || typeof value === 'string') {
      const m = /^(\d+)\/(\d+)$/.exec(String(value));
      return m ? 1 + Number(m[1]) / Number(m[2]) : Number(value);
    }
    const n = Number(value);
    if (format === 'american') return n >= 0 ? 1 + n / 100 : 1 + 100 / -n;
    return n;
  }

  /**
   * Shows a price in a cell: the value, an arrow for the last move, a lock, and a flash when it moved.
   * `o` is the outcome's state: {odds, locked, dir ('up', 'down' or ''), flash (a counter: each move restarts the animation)}.
   */
  function showPrice(cell, o, format, eventLocked) {
    const locked = o.locked || eventLocked === true;
    const parts = [formatOdds(o.odds, format)];
    if (o.dir === 'up')
      parts.push(el('span', { class: 'move up', text: '▲' }), el('span', { class: 'visually-hidden', text: ' up' }));
    if (o.dir === 'down')
      parts.push(
        el('span', { class: 'move down', text: '▼' }),
        el('span', { class: 'visually-hidden', text: ' down' }),
      );
    if (locked) parts.push(lockIcon(), el('span', { class: 'visually-hidden', text: ' locked' }));
    cell.replaceChildren(...parts);
    cell.classList.toggle('locked', locked);
    cell.setAttribute('data-odds', String(o.odds));
    cell.setAttribute('data-locked', String(locked));
    // Only a recent move flashes: a cell drawn again later (a group reopened, the board redrawn) does not.
    if (o.flash > 0 && cell.getAttribute('data-flash') !== String(o.flash) && performance.now() - o.movedAt < 1200) {
      // Two alternating animation classes restart the flash without forcing a layout.
      cell.setAttribute('data-flash', String(o.flash));
      cell.classList.remove('flash-up-a', 'flash-up-b', 'flash-down-a', 'flash-down-b');
      cell.classList.add('flash-' + (o.dir || 'up') + (o.flash % 2 === 0 ? '-a' : '-b'));
    }
  }

  /** A padlock drawn in SVG (an emoji needs a font that a server or a kiosk may not have); the text beside it says "locked". */
  function lockIcon() {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'lock');
    svg.setAttribute('viewBox', '0 0 10 12');
    svg.setAttribute('width', '10');
    svg.setAttribute('height', '12');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', 'M2.5 5V3.5a2.5 2.5 0 0 1 5 0V5H9v7H1V5zm1.2 0h2.6V3.5a1.3 1.3 0 0 0-2.6 0z');
    path.setAttribute('fill', 'currentColor');
    svg.append(path);
    return svg;
  }

  /** Records a new price on an outcome's state: the direction of the move, and a flash if it moved. */
  function movePrice(o, odds, locked, format) {
    if (odds !== undefined && odds !== null && String(odds) !== String(o.odds)) {
      const before = decimalOf(o.odds, format);
      const after = decimalOf(odds, format);
      if (before !== null && after !== null && before !== after) {
        o.dir = after > before ? 'up' : 'down';
        o.flash = (o.flash || 0) + 1;
        o.movedAt = performance.now();
      }
      o.odds = odds;
    }
    if (locked !== undefined) o.locked = locked;
  }

  // ---- markets ----

  /** The family of a market key (`family[@period][:line]`); player props group by their counter (`player_goals`). */
  function familyOf(key) {
    const family = String(key).split(/[@:]/)[0];
    const prop = /^(player_[a-z0-9]+(?:_[a-z0-9]+)*?)_[^_]+$/.exec(family);
    return prop && family.startsWith('player_') ? prop[1] : family;
  }

  const FAMILY_NAMES = {
    '1x2': 'Match result (1X2)',
    moneyline: 'Winner (moneyline)',
    asian_handicap: 'Asian handicap',
    handicap_3way: 'Handicap (3-way)',
    totals: 'Totals',
    btts: 'Both teams to score',
    correct_score: 'Correct score',
    double_chance: 'Double chance',
    draw_no_bet: 'Draw no bet',
    odd_even: 'Odd or even',
    ht_ft: 'Half time / full time',
  };

  function familyName(family) {
    if (FAMILY_NAMES[family]) return FAMILY_NAMES[family];
    const words = family.replace(/_/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  const MAIN_FAMILIES = ['1x2', 'moneyline'];

  // ---- times ----

  /**
   * The world's "now": an accelerated simulator runs ahead of the wall clock, and faster. Responses carry
   * X-World-Time and heartbeats the world's time; two readings far enough apart tell its speed.
   */
  const world = {
    base: null,
    speed: 1,
    set(worldMs) {
      if (!Number.isFinite(worldMs)) return;
      const p = performance.now();
      if (this.base && p - this.base.p > 5000) {
        this.speed = Math.max(0.1, Math.round(((worldMs - this.base.w) / (p - this.base.p)) * 10) / 10);
      }
      if (!this.base || p - this.base.p > 5000) this.base = { w: worldMs, p };
    },
    now() {
      return this.base ? this.base.w + (performance.now() - this.base.p) * this.speed : Date.now();
    },
  };

  function hhmm(ms) {
    const d = new Date(ms);
    return String(d.getHours()).padStart(2, '0') + ':' + String(d.getMinutes()).padStart(2, '0');
  }

  function when(ms) {
    const d = new Date(ms);
    const today = new Date(world.now());
    return d.toDateString() === today.toDateString()
      ? hhmm(ms)
      : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' }) + ' ' + hhmm(ms);
  }

  function timeTag(ms) {
    return el('time', { datetime: new Date(ms).toISOString(), text: when(ms) });
  }

  // ---- the key bar, the API and the stream ----

  /** A failed API request: its HTTP status and the service's `{error, message}`. */
  class ApiError extends Error {
    constructor(status, text) {
      super(text);
      this.status = status;
    }
  }

  /**
   * Connects a console page: reads the key bar, calls `start(ctx)` once a secret is there (at load if the
   * tab has it, or on Connect), and again when the key or the odds format changes. `start` returns a stop function.
   * ctx: {api, stream, format, keyId, link(path), setStatus(state, text)}.
   */
  function connect(start) {
    const form = byId('console-key');
    if (!form) return;
    const keySelect = byId('cs-key');
    const secretInput = byId('cs-secret');
    const formatSelect = byId('cs-format');
    const status = byId('cs-status');
    let stop = null;
    let requests = 0;
    let streamState = '';

    function setStatus(state, text) {
      status.setAttribute('data-state', state);
      streamState = text;
      render();
    }

    function render() {
      status.textContent =
        streamState +
        (requests > 0 ? ' · ' + requests + ' request' + (requests === 1 ? '' : 's') + ' sent with this key' : '');
    }

    /** Keeps the chosen key and format in the address (links and reloads keep them; the secret never goes there). */
    function keepInAddress() {
      const url = new window.URL(window.location.href);
      url.searchParams.set('key', keySelect.value);
      url.searchParams.set('odds_format', formatSelect.value);
      window.history.replaceState(null, '', url.pathname + '?' + url.searchParams.toString() + url.hash);
    }

    function link(path, extra) {
      const q = new URLSearchParams({ key: keySelect.value, odds_format: formatSelect.value, ...(extra || {}) });
      return path + '?' + q.toString();
    }

    function run() {
      const secret = secretInput.value.trim();
      if (stop) stop();
      stop = null;
      if (!secret) {
        setStatus('idle', 'Paste the key’s secret and connect.');
        return;
      }
      remember(keySelect.value, secret);
      keepInAddress();
      requests = 0;
      const format = formatSelect.value;

      async function api(path, params) {
        const query = params ? new URLSearchParams(params).toString().replace(/%2C/gi, ',') : '';
        requests += 1;
        render();
        const res = await fetch(path + (query ? '?' + query : ''), {
          headers: { 'X-API-Key': secret },
          cache: 'no-store',
          credentials: 'omit',
        });
        const worldTime = res.headers.get('x-world-time');
        if (worldTime) world.set(Date.parse(worldTime));
        const text = await res.text();
        let body = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
        if (!res.ok) {
          throw new ApiError(
            res.status,
            body && typeof body.message === 'string'
              ? body.error + ': ' + body.message
              : res.status + ' ' + res.statusText,
          );
        }
        return body;
      }

      function stream(params, events, handlers) {
        return openStream(secret, params, events, handlers, setStatus, () => {
          requests += 1;
          render();
        });
      }

      stop = start({ api, stream, format, keyId: keySelect.value, link, setStatus });
    }

    keySelect.addEventListener('change', () => {
      secretInput.value = recall(keySelect.value);
      run();
    });
    formatSelect.addEventListener('change', run);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      run();
    });
    window.addEventListener('pagehide', () => {
      if (stop) stop();
      stop = null;
    });
    secretInput.value = recall(keySelect.value);
    run();
  }

  /**
   * The stream: EventSource, which reconnects by itself and resumes with Last-Event-ID. When it gives up (the
   * service refused a reconnection, or restarted), the console opens a new one after a pause with `last_event_id`,
   * so nothing is lost either way; what cannot be resumed comes as `snapshot_required`.
   */
  function openStream(secret, params, events, handlers, setStatus, counted) {
    let source = null;
    let lastId = '';
    let stopped = false;
    let timer = null;
    let pauseMs = 2000;
    let received = 0;
    // A connection lost before any event with an id came cannot be resumed (there is no position to
    // resume after): what changed meanwhile is unknown, so the page is told as for snapshot_required.
    let unresumable = false;

    function url(withKey, resumeId) {
      const q = new URLSearchParams(params);
      if (resumeId) q.set('last_event_id', resumeId);
      if (withKey) q.set('api_key', secret);
      return '/v1/stream?' + q.toString().replace(/%2C/gi, ',');
    }

    /** EventSource hides why a stream was refused: ask once with fetch and read the service's error. */
    async function explain() {
      const abort = new AbortController();
      try {
        counted();
        const res = await fetch(url(false, lastId), {
          headers: { 'X-API-Key': secret },
          cache: 'no-store',
          credentials: 'omit',
          signal: abort.signal,
        });
        if (res.ok) {
          abort.abort();
          return { status: 200, text: 'the connection failed' };
        }
        const body = await res.json().catch(() => null);
        return {
          status: res.status,
          retryAfter: Number(res.headers.get('retry-after')) || 0,
          text: body && body.message ? res.status + ' ' + body.error + ': ' + body.message : String(res.status),
        };
      } catch (err) {
        return { status: 0, text: err instanceof Error ? err.message : String(err) };
      }
    }

    function open() {
      if (stopped) return;
      counted();
      const es = new EventSource(url(true, lastId));
      source = es;
      setStatus('connecting', lastId ? 'Reconnecting, resuming after id ' + lastId + '…' : 'Connecting…');
      es.addEventListener('open', () => {
        if (source !== es) return;
        pauseMs = 2000;
        setStatus('open', 'Live');
        if (unresumable) {
          unresumable = false;
          // A stream with a snapshot gets a new one from the service; one without asks the page to catch up.
          if (!params.snapshot && handlers.snapshot_required)
            handlers.snapshot_required({ reason: 'unknown', last_event_id: null });
        }
      });
      for (const name of events) {
        es.addEventListener(name, (e) => {
          if (source !== es) return;
          if (e.lastEventId) lastId = e.lastEventId;
          let data;
          try {
            data = JSON.parse(e.data);
          } catch {
            return;
          }
          if (name === 'heartbeat' && data.time) world.set(Date.parse(data.time));
          received += 1;
          const handler = handlers[name];
          if (handler) handler(data, e.lastEventId);
        });
      }
      es.addEventListener('error', () => {
        if (source !== es || stopped) return;
        if (!lastId) unresumable = true;
        if (es.readyState !== EventSource.CLOSED) {
          // The browser reconnects by itself after the service's `retry` and sends Last-Event-ID.
          setStatus(
            'reconnecting',
            'Connection lost: reconnecting' + (lastId ? ', resuming after id ' + lastId : '') + '…',
          );
          return;
        }
        source = null;
        void explain().then((why) => {
          if (stopped) return;
          if (why.status === 400 || why.status === 401) {
            setStatus('refused', 'The stream was refused: ' + why.text);
            return;
          }
          const wait = Math.max(pauseMs, why.retryAfter * 1000);
          pauseMs = Math.min(pauseMs * 2, 30000);
          setStatus(
            'reconnecting',
            'The stream stopped (' + why.text + '): trying again in ' + Math.round(wait / 1000) + ' s…',
          );
          timer = setTimeout(open, wait);
        });
      });
    }

    open();
    return {
      close() {
        stopped = true;
        clearTimeout(timer);
        if (source) source.close();
        source = null;
      },
      get lastId() {
        return lastId;
      },
      get received() {
        return received;
      },
    };
  }

  /** Runs `fn` once at the next frame however often it is asked for before then. */
  function frameBatcher(fn) {
    let pending = false;
    return function schedule() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        fn();
      });
    };
  }

  /** Runs `fn` at most once per `ms` (the last call's wish is kept). */
  function throttled(fn, ms) {
    let last = 0;
    let timer = null;
    return function schedule() {
      if (timer !== null) return;
      const wait = Math.max(0, last + ms - performance.now());
      timer = setTimeout(() => {
        timer = null;
        last = performance.now();
        fn();
      }, wait);
    };
  }

  /** A team's logo (decorative: the name is beside it), or its initials until the logo is known. */
  function logoImg(src, name) {
    if (src) return el('img', { src, alt: '', width: 24, height: 24, class: 'logo', loading: 'lazy' });
    const initials = String(name || '')
      .split(/\s+/)
      .filter((w) => /^[A-Za-z]/.test(w))
      .map((w) => w[0].toUpperCase())
      .join('')
      .slice(-2);
    return el('span', { class: 'logo logo-initials', 'aria-hidden': 'true', text: initials });
  }

  window.SdsConsole = {
    byId,
    el,
    readJson,
    formatOdds,
    decimalOf,
    showPrice,
    movePrice,
    familyOf,
    familyName,
    MAIN_FAMILIES,
    world,
    hhmm,
    when,
    timeTag,
    connect,
    frameBatcher,
    throttled,
    logoImg,
    ApiError,
  };
})();
