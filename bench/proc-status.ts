// Memory of a process from /proc/<pid>/status: resident set now (VmRSS) and its peak (VmHWM), Linux only.
import { readFile } from 'node:fs/promises';
import { childPids } from './measure.js';

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

/**
 * A process's memory with its child processes' (a service's stream process is part of the
 * service: RSS summed, peaks summed, an upper bound); null where /proc is missing or it has gone.
 */
export async function readProcessMemory(pid: number): Promise<ProcessMemory | null> {
  const own = await ownMemory(pid);
  if (own === null) return null;
  for (const child of childPids(pid)) {
    const m = await ownMemory(child);
    if (m === null) continue;
    own.rssBytes += m.rssBytes;
    own.peakRssBytes += m.peakRssBytes;
  }
  return own;
}

async function ownMemory(pid: number): Promise<ProcessMemory | null> {
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
