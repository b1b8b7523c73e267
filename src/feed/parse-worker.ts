// Worker thread that parses and validates large feed bodies, so a 30 MB tick never holds the API's event loop.
import { parentPort } from 'node:worker_threads';
import { parsePackedBody, type IngressLine } from './packed-body.js';

export interface ParseRequest {
  id: number;
  body: Uint8Array;
}

export type ParseReply = { id: number; lines: IngressLine[] } | { id: number; failure: string };

const decoder = new TextDecoder();

parentPort?.on('message', (req: ParseRequest) => {
  try {
    const { lines, buffers } = parsePackedBody(decoder.decode(req.body));
    parentPort?.postMessage({ id: req.id, lines } satisfies ParseReply, buffers);
  } catch (error) {
    parentPort?.postMessage({
      id: req.id,
      failure: error instanceof Error ? error.message : String(error),
    } satisfies ParseReply);
  }
});
