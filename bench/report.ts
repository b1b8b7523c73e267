// Plain-text report: the results table and the PASS/MISS lines of the targets.
import { serverMicrosPerRequest } from './measure.js';
import type { ResultRow, TargetCheck } from './section.js';

const num = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const fmtMicros = (us: number | null): string => (us === null ? '?' : num(us));

export function formatTable(rows: ResultRow[]): string {
  const header = [
    'section',
    'target',
    'req/s (median)',
    'p50 ms',
    'p99 ms',
    'MB/s',
    'server CPU',
    'server µs/req',
    'client CPU',
    'req/s of each run',
  ];
  const body = rows.map((r) => [
    r.section,
    r.target,
    num(r.median.requestsPerSec, 1),
    num(r.median.latencyP50Ms),
    num(r.median.latencyP99Ms),
    num(r.median.bytesPerSec / 1e6, 1),
    r.median.serverCpuPercent === null ? '?' : `${num(r.median.serverCpuPercent)}%`,
    fmtMicros(serverMicrosPerRequest(r.median)),
    `${num(r.median.clientCpuPercent)}%`,
    r.runs.map((run) => num(run.requestsPerSec, 1)).join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  // Text columns left-aligned, figures right-aligned.
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export function formatChecks(checks: TargetCheck[]): string {
  return checks
    .map((c) => `${c.label} = ${c.value.toFixed(2)} (target ${c.op} ${c.threshold})  ${c.pass ? 'PASS' : 'MISS'}`)
    .join('\n');
}
