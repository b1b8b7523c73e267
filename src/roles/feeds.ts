// Which producer feeds this node (FEED): the built-in simulator, The Odds API adapter, or none (admin feed only).
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Store } from '../store/store.js';
import type { NodeParts } from './node.js';
import type { ServiceOptions } from './service-types.js';
import type { BuiltInFeed } from './simulator.js';
import type { UpstreamFeed } from './upstream.js';

/** Told apart by `kind` ('simulator' or 'upstream'). */
export type NodeFeed = BuiltInFeed | UpstreamFeed;

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
  switch (node.config.feed) {
    case 'simulator': {
      const { BuiltInFeed } = await import('./simulator.js');
      return new BuiltInFeed(node, pipeline);
    }
    case 'the-odds-api': {
      const { UpstreamFeed } = await import('./upstream.js');
      return new UpstreamFeed(node, pipeline, opts.upstream, store);
    }
    case 'none':
      return null;
  }
}
