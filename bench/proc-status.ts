// Memory of a process from /proc/<pid>/status: resident set now (VmRSS) and its peak (VmHWM), Linux only.
import { readFile } from 'node:fs/promises';

export interface ProcessMemory {
  /** Resident set size now, bytes. */
  rssBytes: number;
  /** Peak resident set size since the process started ("high water mark"), bytes. */
  peakRssBytes: number;
}

function kilobytes(status: string, field: string): number | null {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return m?.[1] === undefined ? null : Number(m[1]) * 1024;
}

/** Null where /proc is missing (not Linux) or the process has gone. */
export async function readProcessMemory(pid: number): Promise<ProcessMemory | null> {
  let status: string;
  try {
    status = await readFile(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const rss = kilobytes(status, 'VmRSS');
  const peak = kilobytes(status, 'VmHWM');
  return rss === null || peak === null ? null : { rssBytes: rss, peakRssBytes: peak };
}
