// Health probes of a chaos campaign: /v1/health on every API node every half second, with keys of a pool (health allows 2 a second and 120 an hour per key).
import { loadConfig } from '../src/config.js';
import { createApiKey } from '../src/api/keys.js';
import { openStore } from '../src/roles/index.js';
import type { Node } from './deployment.js';
import type { History } from './history.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Uses of one key at most: under health's 120 an hour, whatever the run's length. */
const USES_PER_KEY = 100;
export const PROBE_MS = 500;

/** Keys enough for `probes` health calls, created in the campaign's database before any node starts. */
export async function createProbeKeys(databaseUrl: string, probes: number): Promise<string[]> {
  const store = await openStore(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  try {
    const keys: string[] = [];
    const n = Math.ceil(probes / USES_PER_KEY) + 2;
    for (let i = 0; i < n; i++) {
      const { secret } = await createApiKey(store, {
        name: `chaos-probe-${i}`,
        plan: 'unlimited',
        accountId: null,
        now: Date.now(),
      });
      keys.push(secret);
    }
    return keys;
  } finally {
    await store.close();
  }
}

export class HealthProbes {
  private next = 0;
  private readonly uses = new Map<string, number>();
  /** Probes not sent because every key was used up (the run outlived its estimate). */
  skipped = 0;

  constructor(
    private readonly h: History,
    private readonly keys: readonly string[],
  ) {}

  private key(): string | null {
    for (let tries = 0; tries < this.keys.length; tries++) {
      const k = this.keys[this.next++ % this.keys.length] as string;
      const used = this.uses.get(k) ?? 0;
      if (used < USES_PER_KEY) {
        this.uses.set(k, used + 1);
        return k;
      }
    }
    return null;
  }

  async probe(node: Node): Promise<void> {
    const key = this.key();
    if (key === null) {
      this.skipped++;
      return;
    }
    const sent = this.h.now();
    let status = 0;
    let component: string | null = null;
    try {
      const res = await fetch(`${node.base}/v1/health`, {
        headers: { 'x-api-key': key },
        signal: AbortSignal.timeout(5000),
      });
      status = res.status;
      const body = (await res.json().catch(() => null)) as { component?: string } | null;
      component = body?.component ?? null;
    } catch {
      status = 0;
    }
    this.h.health.push({ sent, at: this.h.now(), node: node.name, status, component });
  }

  /** Probes every node every PROBE_MS until `stopped()`. */
  async run(nodes: readonly Node[], stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      const t = performance.now();
      await Promise.all(nodes.map((n) => this.probe(n)));
      await sleep(Math.max(0, PROBE_MS - (performance.now() - t)));
    }
  }
}
