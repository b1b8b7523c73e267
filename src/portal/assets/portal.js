// The developer portal's browser script: copy buttons, the usage chart (Chart.js), and the explorer. No build step.
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
  function setupExplorer() {
    const form = document.querySelector('form[data-explorer]');
    const data = byId('explorer-endpoints');
    if (!form || !data) return;
    const endpoints = JSON.parse(data.textContent || '[]');
    const keySelect = byId('ex-key');
    const secretInput = byId('ex-secret');
    const endpointSelect = byId('ex-endpoint');
    const paramsBox = byId('ex-params');
    const urlOut = byId('ex-url');
    const statusOut = byId('ex-status');
    const headersOut = byId('ex-headers');
    const bodyOut = document.querySelector('#ex-body code');

    function current() {
      return endpoints[Number(endpointSelect.value)] || endpoints[0];
    }

    function requestUrl() {
      const endpoint = current();
      let path = endpoint.path;
      const query = new window.URLSearchParams();
      for (const p of endpoint.params) {
        const input = byId('ex-param-' + p.name);
        const value = input ? input.value.trim() : '';
        if (p.in === 'path') path = path.replace('{' + p.name + '}', encodeURIComponent(value || p.name));
        else if (value !== '') query.set(p.name, value);
      }
      const q = query.toString();
      return path + (q ? '?' + q : '');
    }

    function renderParams() {
      const endpoint = current();
      paramsBox.replaceChildren();
      for (const p of endpoint.params) {
        const wrap = document.createElement('div');
        const label = document.createElement('label');
        const id = 'ex-param-' + p.name;
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
          if (p.example) input.value = p.example;
        }
        input.id = id;
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
        paramsBox.append(wrap);
      }
      urlOut.textContent = 'GET ' + requestUrl();
    }

    function loadSecret() {
      secretInput.value = recall(keySelect.value);
    }

    keySelect.addEventListener('change', loadSecret);
    secretInput.addEventListener('change', () => remember(keySelect.value, secretInput.value.trim()));
    endpointSelect.addEventListener('change', renderParams);
    paramsBox.addEventListener('input', () => {
      urlOut.textContent = 'GET ' + requestUrl();
    });
    paramsBox.addEventListener('change', () => {
      urlOut.textContent = 'GET ' + requestUrl();
    });

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const secret = secretInput.value.trim();
      if (!secret) {
        statusOut.textContent = 'Paste the secret of the chosen key first.';
        secretInput.focus();
        return;
      }
      remember(keySelect.value, secret);
      const url = requestUrl();
      urlOut.textContent = 'GET ' + url;
      statusOut.textContent = 'Sending…';
      const started = performance.now();
      try {
        const res = await fetch(url, { headers: { 'X-API-Key': secret }, cache: 'no-store', credentials: 'omit' });
        const text = await res.text();
        const ms = Math.round(performance.now() - started);
        let shown = text;
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          // Not JSON: shown as it came.
        }
        bodyOut.textContent = shown;
        headersOut.replaceChildren();
        for (const name of [
          'content-type',
          'x-ratelimit-limit',
          'x-ratelimit-remaining',
          'x-ratelimit-reset',
          'retry-after',
        ]) {
          const value = res.headers.get(name);
          if (value === null) continue;
          const dt = document.createElement('dt');
          const dd = document.createElement('dd');
          dt.textContent = name;
          dd.textContent = value;
          headersOut.append(dt, dd);
        }
        const size = new window.Blob([text]).size;
        statusOut.textContent =
          res.status + ' ' + res.statusText + ' · ' + (size / 1024).toFixed(1) + ' kB · ' + ms + ' ms';
        statusOut.setAttribute('data-status', String(res.status));
      } catch (err) {
        statusOut.textContent = 'The request failed: ' + (err instanceof Error ? err.message : String(err));
        statusOut.setAttribute('data-status', 'error');
      }
    });

    renderParams();
    loadSecret();
  }

  drawUsageChart();
  setupExplorer();
})();
