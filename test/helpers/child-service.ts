// A service in a child process (`cli.js serve`, embedded store, admin feed only): what a kill -9 test kills and restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(process.cwd(), 'dist/src/cli.js');

/** Starts `serve` on `port` over `dataDir` with the admin key and an unlimited demo key; `env` adds or overrides. */
export function startChild(
  dataDir: string,
  port: number,
  keys: { admin: string; demo: string },
  env: Record<string, string> = {},
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
    stdio: 'ignore',
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
