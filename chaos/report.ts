// The markdown report of a chaos campaign: its settings, figures, fault timeline and violations.
import type { History } from './history.js';
import type { Verdict } from './verdict.js';

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function renderReport(settings: Record<string, unknown>, h: History, verdict: Verdict): string {
  const f = verdict.figures as {
    requests: number;
    statuses: Record<string, number>;
    health_probes: number;
    health_statuses: Record<string, number>;
    fault_count: number;
    faults: Record<string, number>;
    games: Record<string, number>;
    feed: Record<string, number>;
    streams: Record<string, unknown>;
    takeover_ms: { samples: number[]; p50: number | null; p99: number | null };
    health: Array<{ kind: string; at: number; during: string; returnMs: Record<string, number | null> }>;
  };
  const kv = (o: Record<string, unknown>): string =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(', ');
  const lines = [
    `# Chaos campaign: seed ${String(settings.seed)}, ${String(settings.minutes)} min`,
    '',
    `Started ${h.startedAt}. Settings: ${kv(settings)}.`,
    '',
    `**Verdict: ${verdict.violations.length === 0 ? 'no violation' : `${verdict.violations.length} violations`}.**`,
    '',
    '## Figures',
    '',
    `- Requests (REST readers): ${f.requests} — by status: ${kv(f.statuses)} (0: node unreachable)`,
    `- Health probes: ${f.health_probes} — by status: ${kv(f.health_statuses)}`,
    `- Faults: ${f.fault_count} — ${kv(f.faults)}`,
    `- Games: ${kv(f.games)}`,
    `- Feed: ${kv(f.feed)}`,
    `- Streams: ${kv(f.streams)}`,
    `- Leader takeover (kill to fresh data on every API node): p50 ${f.takeover_ms.p50 ?? '-'} ms, p99 ${f.takeover_ms.p99 ?? '-'} ms (${f.takeover_ms.samples.join(', ')})`,
    '',
    '## Health around component faults',
    '',
    '| at | fault | health during (API nodes) | 200 again after the return |',
    '| --- | --- | --- | --- |',
    ...f.health.map(
      (x) =>
        `| ${s(x.at)} | ${x.kind} | ${x.during || '-'} | ${Object.entries(x.returnMs)
          .map(([n, ms]) => `${n} ${ms === null ? 'never' : `${ms} ms`}`)
          .join(', ')} |`,
    ),
    '',
    '## Fault timeline',
    '',
    '| start | end | fault | detail |',
    '| --- | --- | --- | --- |',
    ...h.faults.map((x) => `| ${s(x.start)} | ${s(x.end)} | ${x.kind} | ${x.detail} |`),
    '',
    '## Violations',
    '',
    ...(verdict.violations.length === 0
      ? ['None.']
      : verdict.violations.map((v) => `- **${v.rule}**${v.at !== undefined ? ` at ${s(v.at)}` : ''}: ${v.detail}`)),
    '',
    '## Notes',
    '',
    ...(h.notes.length === 0 ? ['None.'] : h.notes.map((n) => `- ${s(n.at)}: ${n.text}`)),
    '',
  ];
  return lines.join('\n');
}
