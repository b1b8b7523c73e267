// HTTP load measurement with autocannon: one warmed-up run, and the median of several runs.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  pipelining: number;
  /** Seconds of warm-up (JIT, caches, connection set-up); not recorded. 0 skips it. */
  warmupSeconds: number;
  durationSeconds: number;
  /** The server's process id: its CPU use during the run is recorded (Linux /proc only). */
  serverPid?: number;
  /** Requests to cycle through instead of GET `url` (e.g. a `setupRequest` that picks a path per request). */
  requests?: autocannon.Request[];
  /** Caps the request rate over all connections (req/s); absent: as fast as the server answers. */
  overallRate?: number;
}

export interface LoadRun {
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  bytesPerSec: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * CPU used during the measured run, in % of one core: well under 100 for the server means
   * something else (the load generator, the loopback) was the limit, not the server.
   */
  serverCpuPercent: number | null;
  clientCpuPercent: number;
}

let clockTicks: number | null = null;

/** The child processes of a process (the service's stream process, STREAM_PROCESS=on); none where /proc cannot tell. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(Number);
  } catch {
    return [];
  }
}

function ownCpuSeconds(pid: number): number | null {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * User + system CPU seconds so far of a process's main thread (its JavaScript thread: not its worker threads, nor
 * V8's compiler and GC helpers), or null where /proc is not available.
 */
export function mainThreadCpuSeconds(pid: number): number | null {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(path: string): number | null {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may contain spaces, hence the last ')'): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return null;
  }
}

/**
 * User + system CPU seconds of a process so far, with those of its live child processes (a
 * service's stream process is part of the service), or null where /proc is not available.
 */
export function processCpuSeconds(pid: number): number | null {
  const own = ownCpuSeconds(pid);
  if (own === null) return null;
  let total = own;
  for (const child of childPids(pid)) total += ownCpuSeconds(child) ?? 0;
  return total;
}

function cannon(opts: LoadOptions, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: opts.url,
    headers: opts.headers ?? {},
    connections: opts.connections,
    pipelining: opts.pipelining,
    duration,
    ...(opts.requests !== undefined ? { requests: opts.requests } : {}),
    ...(opts.overallRate !== undefined ? { overallRate: opts.overallRate } : {}),
  });
}

export async function measureLoad(opts: LoadOptions): Promise<LoadRun> {
  if (opts.warmupSeconds > 0) await cannon(opts, opts.warmupSeconds);
  const serverBefore = opts.serverPid === undefined ? null : processCpuSeconds(opts.serverPid);
  const clientBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  const r = await cannon(opts, opts.durationSeconds);
  const wall = Number(process.hrtime.bigint() - wallBefore) / 1e9;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = opts.serverPid === undefined ? null : processCpuSeconds(opts.serverPid);
  return {
    requestsPerSec: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    bytesPerSec: r.throughput.average,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    serverCpuPercent:
      serverBefore === null || serverAfter === null ? null : ((serverAfter - serverBefore) / wall) * 100,
    clientCpuPercent: ((client.user + client.system) / 1e6 / wall) * 100,
  };
}

/** Server CPU time per request in microseconds: robust to a load generator that cannot saturate the server. */
export function serverMicrosPerRequest(run: LoadRun): number | null {
  if (run.serverCpuPercent === null || run.requestsPerSec <= 0) return null;
  return (run.serverCpuPercent / 100 / run.requestsPerSec) * 1e6;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The per-metric median of several runs (each metric on its own, as usual for benchmark summaries). */
export function medianRun(runs: LoadRun[]): LoadRun {
  const m = (f: (r: LoadRun) => number): number => median(runs.map(f));
  const sum = (f: (r: LoadRun) => number): number => runs.reduce((n, r) => n + f(r), 0);
  return {
    requestsPerSec: m((r) => r.requestsPerSec),
    latencyP50Ms: m((r) => r.latencyP50Ms),
    latencyP99Ms: m((r) => r.latencyP99Ms),
    bytesPerSec: m((r) => r.bytesPerSec),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    serverCpuPercent: runs.some((r) => r.serverCpuPercent === null) ? null : m((r) => r.serverCpuPercent ?? 0),
    clientCpuPercent: m((r) => r.clientCpuPercent),
  };
}
