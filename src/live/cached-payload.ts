// An entry of the payload cache as served: the patchable bytes, their tag, and their compressed forms.
import { CompressedForms, type CompressionStats } from './compressed-forms.js';
import type { Coding } from './compression.js';
import type { PatchablePayload } from './patchable-payload.js';
import type { ServedPayload } from './served-payload.js';

export class CachedPayload implements ServedPayload {
  readonly forms: CompressedForms;
  /** What the cache last counted this entry at (its body and finished forms). */
  accountedBytes = 0;
  accountedCompressedBytes = 0;
  /** The event it belongs to in the cache (set by the cache). */
  owner: string | undefined = undefined;

  constructor(
    /** The cache key: event id and kind (`o|decimal`, `d|decimal|base`…). */
    readonly key: string,
    readonly payload: PatchablePayload,
    private readonly tagPrefix: string,
    stats: CompressionStats,
    private readonly hold: (b: Buffer) => () => void,
    /** Told when a compressed form was kept, so the cache can count it. */
    grown: (entry: CachedPayload) => void,
  ) {
    this.forms = new CompressedForms(stats, () => grown(this));
  }

  get body(): Buffer {
    return this.payload.body;
  }

  /** The event version is part of the tag: a refresh (a new version) is a new tag. */
  get tag(): string {
    return this.tagPrefix + this.payload.builtAt.toString(36);
  }

  /** Bytes held: the body and its finished compressed forms. */
  get bytes(): number {
    return this.payload.body.length + this.forms.bytes;
  }

  get marketsVersion(): number {
    return this.payload.marketsVersion;
  }

  encoded(coding: Coding): Buffer | Promise<Buffer> {
    return this.forms.get(coding, this.payload.body, this.hold);
  }
}
