// Which producer feeds this node (FEED): the built-in simulator, The Odds API adapter, or none (admin feed only).
import type { Config } from '../config.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Store } from '../store/store.js';
import type { NodeParts } from './node.js';
import type { ServiceOptions } from './service-types.js';
import type { BuiltInFeed } from './simulator.js';
import type { UpstreamFeed } from './upstream.js';

/** Told apart by `kind` ('simulator' or 'upstream'). */
export type NodeFeed = BuiltInFeed | UpstreamFeed;

type MakeFeed = (node: NodeParts, pipeline: Pipeline, opts: ServiceOptions, store: Store) => NodeFeed;

/** The configured producer's constructor, its modules imported now (only that producer's); null with FEED=none. */
async function producer(feed: Config['feed']): Promise<MakeFeed | null> {
  switch (feed) {
    case 'simulator': {
      const { BuiltInFeed } = await import('./simulator.js');
      return (node, pipeline) => new BuiltInFeed(node, pipeline);
    }
    case 'the-odds-api': {
      const { UpstreamFeed } = await import('./upstream.js');
      return (node, pipeline, opts, store) => new UpstreamFeed(node, pipeline, opts.upstream, store);
    }
    case 'none':
      return null;
  }
}

/**
 * `store` is the one the feed may write (a pipeline candidate's fenced store: only the leader spends upstream credits).
 * Only the configured producer's modules are loaded.
 */
export async function nodeFeed(
  node: NodeParts,
  pipeline: Pipeline,
  opts: ServiceOptions,
  store: Store = node.store,
): Promise<NodeFeed | null> {
  const make = await producer(node.config.feed);
  return make === null ? null : make(node, pipeline, opts, store);
}

/** Imports the configured producer's modules without starting anything (what `import-serve` measures). */
export async function importProducer(config: Config): Promise<void> {
  await producer(config.feed);
}
