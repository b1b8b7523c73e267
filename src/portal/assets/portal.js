// The developer portal's browser script: copy buttons, the usage chart (Chart.js), the explorer and its stream panel. No build step.
/* global document, window, navigator, sessionStorage, fetch, performance, getComputedStyle, Chart */
(function portal() {
  'use strict';

  /** Explorer secrets live in this tab only (sessionStorage), by key id. */
  const SECRET_PREFIX = 'sds-portal-secret:';

  function byId(id) {
    return document.getElementById(id);
  }

  function remember(keyId, secret) {
    try {
      if (secret) sessionStorage.setItem(SECRET_PREFIX + keyId, secret);
    } catch {
      // Storage may be disabled: the user pastes the secret instead.
    }
  }

  function recall(keyId) {
    try {
      return sessionStorage.getItem(SECRET_PREFIX + keyId) || '';
    } catch {
      return '';
    }
  }

  // ---- copy buttons: navigator.clipboard, else select the text so the user can copy it ----
  function selectText(el) {
    if (el instanceof window.HTMLInputElement) {
      el.focus();
      el.select();
      return;
    }
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    if (selection) {
      selection.removeAllRanges();
      selection.addRange(range);
    }
  }

  async function copy(button) {
    const target = byId(button.getAttribute('data-copy'));
    const status = document.querySelector('[data-copy-status="' + button.getAttribute('data-copy') + '"]');
    if (!target) return;
    const text = target instanceof window.HTMLInputElement ? target.value : target.textContent || '';
    let copied = false;
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch {
        copied = false;
      }
    }
    if (!copied) {
      selectText(target);
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
    }
    if (status) {
      status.textContent = copied ? 'Copied to the clipboard.' : 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  }

  document.addEventListener('click', (event) => {
    const el = event.target instanceof window.Element ? event.target : null;
    const button = el && el.closest('[data-copy]');
    if (button) {
      event.preventDefault();
      void copy(button);
      return;
    }
    const link = el && el.closest('[data-use-in-explorer]');
    if (link) {
      const input = byId(link.getAttribute('data-use-in-explorer'));
      if (input) remember(input.getAttribute('data-key-id'), input.value);
    }
  });

  // ---- forms that apply on change (the usage page's key picker) ----
  for (const form of document.querySelectorAll('form[data-auto-submit]')) {
    const select = form.querySelector('select');
    if (select) select.addEventListener('change', () => form.submit());
  }

  // ---- the usage chart: drawn from the page's own table, so both always show the same numbers ----
  function drawUsageChart() {
    const canvas = byId('usage-chart');
    const figure = canvas && canvas.closest('figure');
    if (!canvas || !figure || typeof Chart === 'undefined') return;
    const days = Number(figure.getAttribute('data-days-in-month')) || 31;
    const requests = new Array(days).fill(null);
    const errors = new Array(days).fill(null);
    for (const row of document.querySelectorAll('#usage-table tbody tr')) {
      const day = Number((row.getAttribute('data-date') || '').slice(8, 10));
      if (day >= 1 && day <= days) {
        requests[day - 1] = Number(row.getAttribute('data-requests'));
        errors[day - 1] = Number(row.getAttribute('data-errors'));
      }
    }
    const css = getComputedStyle(document.documentElement);
    const color = (name) => css.getPropertyValue(name).trim();
    Chart.defaults.color = color('--muted');
    Chart.defaults.borderColor = color('--border');
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    const chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: requests.map((_, i) => String(i + 1)),
        datasets: [
          { label: 'Requests', data: requests, backgroundColor: color('--chart-bar'), borderRadius: 3 },
          { label: 'Errors', data: errors, backgroundColor: color('--chart-error'), borderRadius: 3 },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { title: { display: true, text: 'Day of the month (UTC)' }, grid: { display: false } },
          y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'Requests' } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    figure.setAttribute('data-chart-ready', String(chart.data.datasets[0].data.reduce((a, b) => a + (b || 0), 0)));
  }

  // ---- the explorer ----
  /** Response headers worth reading: caching, compression, quota and rate limits. */
  const SHOWN_HEADERS = [
    'content-type',
    'content-encoding',
    'content-length',
    'etag',
    'cache-control',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'retry-after',
    'x-world-time',
  ];

  function readData(id, fallback) {
    const el = byId(id);
    try {
      return el ? JSON.parse(el.textContent || '') : fallback;
    } catch {
      return fallback;
    }
  }

  /** JSON indented for reading; anything else as it came. */
  function pretty(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }

  /** One labelled input per parameter (a select for enumerations and booleans), ids `prefix + name`. */
  function renderParams(box, prefix, params) {
    box.replaceChildren();
    for (const p of params) {
      const wrap = document.createElement('div');
      const label = document.createElement('label');
      const id = prefix + p.name;
      label.htmlFor = id;
      label.textContent = p.name + (p.required ? ' (required)' : '') + (p.in === 'path' ? ' · path' : '');
      let input;
      if (p.enum) {
        input = document.createElement('select');
        const none = document.createElement('option');
        none.value = '';
        none.textContent = p.required ? 'choose…' : '(default)';
        input.append(none);
        for (const v of p.enum) {
          const o = document.createElement('option');
          o.value = v;
          o.textContent = v;
          input.append(o);
        }
      } else {
        input = document.createElement('input');
        input.type = 'text';
        input.autocomplete = 'off';
        input.spellcheck = false;
        if (p.example) input.value = p.example;
      }
      input.id = id;
      input.name = p.name;
      if (p.required) input.required = true;
      wrap.append(label, input);
      if (p.description) {
        const hint = document.createElement('p');
        hint.className = 'hint';
        hint.id = id + '-hint';
        hint.textContent = p.description;
        input.setAttribute('aria-describedby', hint.id);
        wrap.append(hint);
      }
      box.append(wrap);
    }
  }

  /** The endpoint's path with its path parameters filled, and its query from the filled inputs. */
  function requestPath(prefix, endpoint) {
    let path = endpoint.path;
    const query = new window.URLSearchParams();
    for (const p of endpoint.params) {
      const input = byId(prefix + p.name);
      const value = input ? input.value.trim() : '';
      if (p.in === 'path') path = path.replace('{' + p.name + '}', encodeURIComponent(value || p.name));
      else if (value !== '') query.set(p.name, value);
    }
    return { path, query };
  }

  function withQuery(path, query) {
    // Commas are legal in a query and lists (event_ids, types) read better with them.
    const q = query.toString().replace(/%2C/gi, ',');
    return path + (q ? '?' + q : '');
  }

  function showHeaders(list, headers) {
    list.replaceChildren();
    for (const name of SHOWN_HEADERS) {
      const value = headers.get(name);
      if (value === null) continue;
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = name;
      dd.textContent = value;
      // Epoch seconds are for programs: add the instant for the reader.
      if (name === 'x-ratelimit-reset' && /^\d+$/.test(value)) {
        dd.textContent += ' (' + new Date(Number(value) * 1000).toISOString().replace('.000Z', 'Z') + ')';
      }
      list.append(dt, dd);
    }
  }

  /** Bytes on the wire (compressed) from Resource Timing, when the browser reports them. */
  function transferred(url) {
    const entries = performance.getEntriesByName(new window.URL(url, window.location.href).href);
    const last = entries[entries.length - 1];
    return last && last.transferSize > 0 ? last.transferSize : null;
  }

  function setupExplorer() {
    const form = document.querySelector('form[data-explorer]');
    const endpoints = readData('explorer-endpoints', null);
    if (!form || !endpoints) return;
    const keySelect = byId('ex-key');
    const secretInput = byId('ex-secret');
    const endpointSelect = byId('ex-endpoint');
    const paramsBox = byId('ex-params');
    const bodyField = byId('ex-body-field');
    const bodyInput = byId('ex-request-body');
    const urlOut = byId('ex-url');
    const statusOut = byId('ex-status');
    const headersOut = byId('ex-headers');
    const bodyOut = document.querySelector('#ex-body code');
    const conditional = byId('ex-conditional');
    /** Bodies the user edited, by endpoint: switching endpoints and back keeps them. */
    const edited = new Map();
    /** The last ETag answered for each URL, for a conditional request (If-None-Match → 304). */
    const etags = new Map();

    function current() {
      return endpoints[Number(endpointSelect.value)] || endpoints[0];
    }

    function requestUrl() {
      const r = requestPath('ex-param-', current());
      return withQuery(r.path, r.query);
    }

    function showUrl() {
      const url = requestUrl();
      const tag = conditional.checked ? etags.get(url) : undefined;
      urlOut.textContent = current().method + ' ' + url + (tag ? ' · If-None-Match: ' + tag : '');
    }

    function renderRequest() {
      const endpoint = current();
      renderParams(paramsBox, 'ex-param-', endpoint.params);
      // POST and PATCH carry a JSON body (a webhook's fields); GET and DELETE none.
      const post = endpoint.method === 'POST' || endpoint.method === 'PATCH';
      bodyField.hidden = !post;
      conditional.closest('div').hidden = post;
      if (post) conditional.checked = false;
      bodyInput.value = post ? (edited.get(endpointSelect.value) ?? endpoint.body ?? '{}') : '';
      bodyInput.removeAttribute('aria-invalid');
      showUrl();
    }

    function secret() {
      return secretInput.value.trim();
    }

    function needSecret(out) {
      if (secret()) {
        remember(keySelect.value, secret());
        return false;
      }
      out.textContent = 'Paste the secret of the chosen key first.';
      out.setAttribute('data-status', 'no-key');
      secretInput.focus();
      return true;
    }

    keySelect.addEventListener('change', () => {
      secretInput.value = recall(keySelect.value);
    });
    secretInput.addEventListener('change', () => remember(keySelect.value, secret()));
    endpointSelect.addEventListener('change', renderRequest);
    conditional.addEventListener('change', showUrl);
    paramsBox.addEventListener('input', showUrl);
    paramsBox.addEventListener('change', showUrl);
    bodyInput.addEventListener('input', () => edited.set(endpointSelect.value, bodyInput.value));
    byId('ex-body-reset').addEventListener('click', () => {
      edited.delete(endpointSelect.value);
      bodyInput.value = current().body || '{}';
      bodyInput.removeAttribute('aria-invalid');
    });

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      statusOut.removeAttribute('data-status');
      if (needSecret(statusOut)) return;
      const endpoint = current();
      const url = requestUrl();
      const init = {
        method: endpoint.method,
        headers: { 'X-API-Key': secret() },
        cache: 'no-store',
        credentials: 'omit',
      };
      if (endpoint.method === 'POST' || endpoint.method === 'PATCH') {
        try {
          JSON.parse(bodyInput.value);
        } catch (err) {
          bodyInput.setAttribute('aria-invalid', 'true');
          statusOut.textContent = 'The request body is not valid JSON: ' + (err instanceof Error ? err.message : err);
          statusOut.setAttribute('data-status', 'invalid-body');
          bodyInput.focus();
          return;
        }
        bodyInput.removeAttribute('aria-invalid');
        init.headers['Content-Type'] = 'application/json';
        init.body = bodyInput.value;
      }
      const tag = conditional.checked ? etags.get(url) : undefined;
      if (tag) init.headers['If-None-Match'] = tag;
      urlOut.textContent = endpoint.method + ' ' + url + (tag ? ' · If-None-Match: ' + tag : '');
      statusOut.textContent = 'Sending…';
      const started = performance.now();
      try {
        const res = await fetch(url, init);
        const text = await res.text();
        const ms = Math.round(performance.now() - started);
        bodyOut.textContent =
          res.status === 304 ? '(304 Not Modified: no body; what you have is current)' : pretty(text);
        showHeaders(headersOut, res.headers);
        const etag = res.headers.get('etag');
        if (etag && endpoint.method === 'GET') etags.set(url, etag);
        const size = new window.Blob([text]).size;
        const wire = transferred(url);
        statusOut.textContent =
          res.status +
          ' ' +
          res.statusText +
          ' · ' +
          (size / 1024).toFixed(1) +
          ' kB' +
          (wire !== null && wire < size ? ' (' + (wire / 1024).toFixed(1) + ' kB transferred)' : '') +
          ' · ' +
          ms +
          ' ms';
        statusOut.setAttribute('data-status', String(res.status));
      } catch (err) {
        statusOut.textContent = 'The request failed: ' + (err instanceof Error ? err.message : String(err));
        statusOut.setAttribute('data-status', 'error');
      }
    });

    renderRequest();
    secretInput.value = recall(keySelect.value);
    setupStream(
      endpoints.find((e) => e.stream),
      secret,
      needSecret,
    );
  }

  // ---- the explorer's stream panel: EventSource, which resumes by Last-Event-ID when it reconnects ----
  function setupStream(endpoint, secret, needSecret) {
    const form = byId('ex-stream-form');
    if (!form || !endpoint) return;
    const config = readData('explorer-stream-config', { events: [], max: 100 });
    const paramsBox = byId('ex-stream-params');
    const urlOut = byId('ex-stream-url');
    const openButton = byId('ex-stream-open');
    const closeButton = byId('ex-stream-close');
    const statusOut = byId('ex-stream-status');
    const beatOut = byId('ex-stream-beat');
    const list = byId('ex-stream-events');
    let source = null;
    let received = 0;
    let lastId = '';

    function streamUrl(key) {
      const r = requestPath('ex-stream-param-', endpoint);
      if (key) r.query.set('api_key', key);
      return withQuery(r.path, r.query);
    }

    function showUrl() {
      // The key is never shown on the page: it stays in the password field.
      urlOut.textContent = 'GET ' + streamUrl('') + (streamUrl('').includes('?') ? '&' : '?') + 'api_key=…';
    }

    function setState(state, text) {
      statusOut.setAttribute('data-state', state);
      statusOut.textContent = text;
      openButton.disabled = state === 'open' || state === 'connecting';
      closeButton.disabled = state === 'closed';
    }

    function add(name, event) {
      if (name === 'heartbeat') {
        beatOut.textContent = 'Last heartbeat ' + new Date().toLocaleTimeString() + ': ' + event.data;
        return;
      }
      received += 1;
      if (event.lastEventId) lastId = event.lastEventId;
      const item = document.createElement('li');
      item.setAttribute('data-event', name);
      item.setAttribute('data-id', event.lastEventId || '');
      const meta = document.createElement('div');
      meta.className = 'meta';
      const title = document.createElement('span');
      title.className = 'name';
      title.textContent = name;
      const id = document.createElement('code');
      id.textContent = event.lastEventId ? 'id ' + event.lastEventId : 'no id';
      const at = document.createElement('span');
      at.textContent = new Date().toLocaleTimeString();
      meta.append(title, id, at);
      const data = document.createElement('pre');
      data.className = 'json';
      const code = document.createElement('code');
      code.textContent = pretty(event.data);
      data.append(code);
      item.append(meta, data);
      list.prepend(item);
      while (list.children.length > config.max) list.lastElementChild.remove();
      showOpen();
    }

    function showOpen() {
      setState(
        'open',
        received === 0
          ? 'Open · waiting for events'
          : 'Open · ' + received + ' event' + (received === 1 ? '' : 's') + ' received, last id ' + lastId,
      );
    }

    /** EventSource hides why a stream was refused: ask once with fetch, read the JSON error, and let go. */
    async function explainRefusal(url) {
      const abort = new window.AbortController();
      try {
        const res = await fetch(url, {
          headers: { 'X-API-Key': secret() },
          cache: 'no-store',
          credentials: 'omit',
          signal: abort.signal,
        });
        if (res.ok) {
          abort.abort();
          return 'the connection failed; try again';
        }
        const body = pretty(await res.text());
        let message = body;
        try {
          const parsed = JSON.parse(body);
          if (parsed && typeof parsed.message === 'string') message = parsed.error + ': ' + parsed.message;
        } catch {
          // Not JSON: shown as it came.
        }
        return res.status + ' ' + message;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    }

    function close(text) {
      if (source) source.close();
      source = null;
      setState('closed', text);
    }

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (needSecret(statusOut)) return;
      if (source) source.close();
      received = 0;
      lastId = '';
      list.replaceChildren();
      beatOut.textContent = '';
      const opened = new window.EventSource(streamUrl(secret()));
      source = opened;
      let everOpen = false;
      setState('connecting', 'Connecting…');
      opened.addEventListener('open', () => {
        everOpen = true;
        showOpen();
      });
      for (const name of config.events) opened.addEventListener(name, (e) => add(name, e));
      opened.addEventListener('error', () => {
        if (source !== opened) return;
        if (opened.readyState === window.EventSource.CLOSED) {
          source = null;
          setState('closed', 'Refused…');
          void explainRefusal(streamUrl('')).then((why) => {
            if (source === null) setState('closed', 'The stream was refused: ' + why);
          });
          return;
        }
        // The browser reconnects by itself and sends Last-Event-ID: nothing is lost or repeated.
        setState(
          'connecting',
          (everOpen ? 'Connection lost: reconnecting' : 'Connecting') +
            (lastId ? ', resuming after id ' + lastId : '') +
            '…',
        );
      });
    });
    closeButton.addEventListener('click', () =>
      close('Closed after ' + received + ' event' + (received === 1 ? '' : 's') + '.'),
    );
    window.addEventListener('pagehide', () => {
      if (source) source.close();
    });
    paramsBox.addEventListener('input', showUrl);
    paramsBox.addEventListener('change', showUrl);
    renderParams(paramsBox, 'ex-stream-param-', endpoint.params);
    showUrl();
    setState('closed', 'Closed.');
  }

  drawUsageChart();
  setupExplorer();
})();
