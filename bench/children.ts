// Child processes of a benchmark run: spawned tracked, stopped politely, and never left behind on exit or Ctrl-C.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';

/** The tail of a child's output, shown when it dies or fails to start (its logs are otherwise hidden). */
class OutputTail {
  private text = '';
  constructor(private readonly max = 8000) {}
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.max);
  }
  toString(): string {
    return this.text;
  }
}

/**
 * With BENCH_CHILD_LOG_DIR set, a child's whole output is also written to `<dir>/<name>-<pid>.log`
 * (e.g. what `--trace-gc` prints), since the tail above keeps only the last few kilobytes.
 */
function keepLog(name: string, proc: ChildProcess): void {
  const dir = process.env.BENCH_CHILD_LOG_DIR;
  if (dir === undefined || dir === '' || proc.pid === undefined) return;
  mkdirSync(dir, { recursive: true });
  const file = createWriteStream(join(dir, `${name}-${proc.pid}.log`));
  proc.stdout?.pipe(file, { end: false });
  proc.stderr?.pipe(file, { end: false });
  proc.once('exit', () => file.end());
}

export interface Child {
  name: string;
  process: ChildProcess;
  output: OutputTail;
  /** Resolves with the exit code (or signal) once the process has gone. */
  exited: Promise<string>;
}

/**
 * Owns every child process and temp dir of the run. `stopAll` is the orderly path; `killAllNow`
 * is the synchronous last resort used from the `exit` handler, where nothing async can run.
 */
export class Children {
  private readonly live = new Set<Child>();
  private readonly dirs = new Set<string>();
  private hooked = false;

  spawn(name: string, command: string, args: string[], opts: SpawnOptions = {}): Child {
    this.installHooks();
    const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    const output = new OutputTail();
    proc.stdout?.on('data', (c: Buffer) => output.push(c));
    proc.stderr?.on('data', (c: Buffer) => output.push(c));
    keepLog(name, proc);
    const exited = new Promise<string>((resolve) => {
      proc.once('exit', (code, signal) => resolve(signal !== null ? `signal ${signal}` : `code ${String(code)}`));
      proc.once('error', (err) => resolve(`spawn error: ${err.message}`));
    });
    const child: Child = { name, process: proc, output, exited };
    this.live.add(child);
    void exited.then(() => this.live.delete(child));
    return child;
  }

  /** A directory removed when the run ends, however it ends. */
  trackDir(dir: string): void {
    this.installHooks();
    this.dirs.add(dir);
  }

  /** SIGTERM (the service then finishes requests and flushes), SIGKILL after `graceMs`. */
  async stop(child: Child, graceMs = 5000): Promise<void> {
    if (!this.live.has(child)) return;
    child.process.kill('SIGTERM');
    const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
    await child.exited;
    clearTimeout(timer);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((c) => this.stop(c)));
    this.removeDirs();
  }

  killAllNow(): void {
    for (const c of this.live) c.process.kill('SIGKILL');
    this.live.clear();
    this.removeDirs();
  }

  private removeDirs(): void {
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
    this.dirs.clear();
  }

  private installHooks(): void {
    if (this.hooked) return;
    this.hooked = true;
    process.once('exit', () => this.killAllNow());
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: stopping child processes`);
        // A second signal while stopping kills outright (the exit hook runs either way).
        process.once(signal, () => process.exit(130));
        void this.stopAll().finally(() => process.exit(130));
      });
    }
  }
}

/** A port free right now (the OS picks it); a race with other processes is possible but unlikely. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx; fails early with the child's output if the child exits first. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  let exit: string | null = null;
  void child.exited.then((e) => (exit = e));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exit !== null)
      throw new Error(`${child.name} exited (${exit}) before answering ${url}:\n${child.output.toString()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output.toString()}`);
}
