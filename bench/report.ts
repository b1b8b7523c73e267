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
  return formatGrid(header, body, (i, n) => i < 2 || i === n - 1);
}

/** A plain-text grid: columns padded to their widest cell, text columns (`isText`) left-aligned, figures right-aligned. */
export function formatGrid(
  header: string[],
  body: string[][],
  isText: (column: number, columns: number) => boolean,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (isText(i, cells.length) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export function formatChecks(checks: TargetCheck[]): string {
  return checks
    .map((c) => {
      const unit = c.unit === undefined ? '' : ` ${c.unit}`;
      // Ratios need two decimals; figures with a unit (ms, MB) read best with one and thousands separators.
      const value = c.unit === undefined ? c.value.toFixed(2) : num(c.value, 1);
      return `${c.label} = ${value}${unit} (target ${c.op} ${c.threshold}${unit})  ${c.pass ? 'PASS' : 'MISS'}`;
    })
    .join('\n');
}
