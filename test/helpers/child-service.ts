// A service in a child process (`cli.js serve`, embedded store, admin feed only): what a kill -9 test kills and restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const CLI = join(process.cwd(), 'dist/src/cli.js');

/** CPU ticks (1/100 s on Linux) a process has used, from /proc; 0 where there is none. */
export function cpuTicks(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [utime, stime] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 13)
      .map(Number);
    return (utime ?? 0) + (stime ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The port a `serve` child listens on, from the line it prints once listening (started with PORT=0,
 * the kernel's choice: a port picked by the test and bound later could be taken meanwhile by
 * another test file's service, whose /readyz would then answer for this one). Rejects if the child
 * exits first (its port taken), or stalls: for `stallMs` it neither listened, nor printed, nor ran
 * at all (a child loading a world works for as long as the machine lets it: seconds on a quiet
 * machine, a minute beside other work; a fixed 20 s failed a cluster under load while its node
 * was still loading, and a niced child on a loaded machine may get less than a CPU second in
 * 20 s). Ten minutes at most. The child's stdout must be piped.
 */
export function listeningPort(child: ChildProcess, stallMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const t0 = Date.now();
    let mark = { at: t0, ticks: cpuTicks(child.pid) };
    const timer = setInterval(() => {
      const now = Date.now();
      const ticks = cpuTicks(child.pid);
      if (ticks > mark.ticks) mark = { at: now, ticks };
      if (now - mark.at > stallMs) done(new Error(`the service did not listen, nor run, for ${stallMs} ms`));
      else if (now - t0 > 600_000) done(new Error('the service did not listen within 10 minutes'));
    }, 250);
    timer.unref();
    const onData = (chunk: Buffer): void => {
      mark = { at: Date.now(), ticks: mark.ticks };
      seen = (seen + chunk.toString()).slice(-4096);
      const m = / listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m !== null) done(null, Number(m[1]));
    };
    const onExit = (code: number | null): void => done(new Error(`the service exited (code ${code}) before listening`));
    const done = (err: Error | null, port?: number): void => {
      clearInterval(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (err !== null) reject(err);
      else resolve(port as number);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts `serve` over `dataDir` with the admin key and an unlimited demo key (`env` adds or
 * overrides) and waits until it listens: on `port`, or with 0 on a port the kernel picks.
 */
export async function startListening(
  dataDir: string,
  port: number,
  keys: { admin: string; demo: string },
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number; base: string }> {
  const child = startChild(dataDir, port, keys, env, 'pipe');
  try {
    const p = await listeningPort(child);
    child.stdout?.resume();
    return { child, port: p, base: `http://127.0.0.1:${p}` };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** Starts `serve` on `port` over `dataDir` with the admin key and an unlimited demo key; `env` adds or overrides. */
export function startChild(
  dataDir: string,
  port: number,
  keys: { admin: string; demo: string },
  env: Record<string, string> = {},
  stdout: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  return spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      FEED: 'none',
      ADMIN_KEY: keys.admin,
      DEMO_API_KEY: keys.demo,
      DEMO_PLAN: 'unlimited',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', stdout, 'ignore'],
  });
}

/** Waits until `/readyz` answers 200 (fails after `tries` × 50 ms). */
export async function waitReady(base: string, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('service did not become ready');
}
