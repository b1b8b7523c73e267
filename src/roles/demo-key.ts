// The demo key: DEMO_API_KEY when configured, else one generated on a fresh install so the quick start works.
import { ensureApiKey, generateApiKey, hashApiKey } from '../api/keys.js';
import type { NodeParts } from './node.js';

/** The demo key's secret when this start created it (printed once), else null. */
export async function ensureDemoKey(node: NodeParts): Promise<string | null> {
  const { config, store, now } = node;
  const create = (secret: string): Promise<boolean> =>
    ensureApiKey(store, secret, {
      id: `demo-${hashApiKey(secret).slice(0, 12)}`,
      name: 'demo',
      plan: config.demoPlan,
      now: now(),
    });
  if (config.demoApiKey !== null) return (await create(config.demoApiKey)) ? config.demoApiKey : null;
  if ((await store.listApiKeys()).length > 0) return null;
  // A fresh install gets one key so the quick start works; its secret is printed once.
  const secret = generateApiKey();
  await create(secret);
  return secret;
}
