// The portal's static files: its stylesheets and scripts (src/portal/assets/: the portal's, the live console's) and Chart.js's UMD build from node_modules.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssetUrls } from './layout.js';

export interface Asset {
  body: Buffer;
  type: string;
  /** Short content hash: the `?v=` of the URL and the ETag. */
  version: string;
}

/** The project root: the nearest folder above this module holding package.json (works from src/ and dist/src/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('portal assets: no package.json above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

function load(path: string, type: string): Asset {
  const body = readFileSync(path);
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

/** Reads every file once at start-up: served from memory. */
export function loadAssets(): Map<string, Asset> {
  const own = join(packageRoot(), 'src', 'portal', 'assets');
  // The UMD build is not in chart.js's export map: find the package's dist folder from its entry.
  const chartDir = dirname(createRequire(import.meta.url).resolve('chart.js'));
  return new Map([
    ['portal.css', load(join(own, 'portal.css'), 'text/css; charset=utf-8')],
    ['portal.js', load(join(own, 'portal.js'), 'text/javascript; charset=utf-8')],
    ['console.css', load(join(own, 'console.css'), 'text/css; charset=utf-8')],
    ...['console.js', 'console-board.js', 'console-event.js', 'console-settlements.js'].map((name): [string, Asset] => [
      name,
      load(join(own, name), 'text/javascript; charset=utf-8'),
    ]),
    ['chart.umd.min.js', load(join(chartDir, 'chart.umd.min.js'), 'text/javascript; charset=utf-8')],
  ]);
}

export function assetUrls(assets: Map<string, Asset>): AssetUrls {
  const url = (name: string): string => `/portal/assets/${name}?v=${assets.get(name)?.version ?? '0'}`;
  return {
    css: url('portal.css'),
    js: url('portal.js'),
    chart: url('chart.umd.min.js'),
    console: {
      css: url('console.css'),
      common: url('console.js'),
      board: url('console-board.js'),
      event: url('console-event.js'),
      settlements: url('console-settlements.js'),
    },
  };
}
