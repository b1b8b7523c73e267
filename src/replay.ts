// Replays an NDJSON feed file into a running service (POST /admin/v1/feed) or straight into the embedded store.
import { SingleBar, Presets } from 'cli-progress';
import { access, constants } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Config } from './config.js';
import { countLines, parseNdjsonLine, type NdjsonLine } from './feed/ndjson.js';
import type { FeedReport } from './pipeline/outcome.js';
import { createService } from './service.js';

export interface ReplayOptions {
  file: string;
  /** Base URL of a running service; absent = apply into the configured store (DATABASE_URL, else `config.dataDir`). */
  url?: string;
  adminKey?: string;
  /** Lines per request / per pipeline batch. */
  batch: number;
  progress: boolean;
}

function newBar(enabled: boolean, total: number): SingleBar | null {
  if (!enabled) return null;
  const bar = new SingleBar(
    { format: 'replay [{bar}] {percentage}% | {value}/{total} lines | {rejected} rejected | eta {eta_formatted}' },
    Presets.shades_classic,
  );
  bar.start(total, 0, { rejected: 0 });
  return bar;
}

/** Reads raw lines in chunks of `size`, keeping their line numbers. */
async function* chunks(file: string, size: number): AsyncGenerator<Array<{ n: number; text: string }>> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  let buf: Array<{ n: number; text: string }> = [];
  for await (const text of rl) {
    n++;
    buf.push({ n, text });
    if (buf.length >= size) {
      yield buf;
      buf = [];
    }
  }
  if (buf.length > 0) yield buf;
}

export async function replay(config: Config, opts: ReplayOptions): Promise<FeedReport> {
  await access(opts.file, constants.R_OK).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${opts.file}: ${err.code ?? err.message}`);
  });
  const total = await countLines(opts.file);
  const bar = newBar(opts.progress, total);
  const report: FeedReport = { accepted: 0, rejected: 0, errors: [] };
  const service = opts.url === undefined ? await createService({ ...config, feed: 'none' }) : null;
  try {
    let done = 0;
    for await (const chunk of chunks(opts.file, opts.batch)) {
      let part: FeedReport;
      if (service !== null) {
        const lines = chunk.map((l) => parseNdjsonLine(l.text, l.n)).filter((l): l is NdjsonLine => l !== null);
        part = await service.pipeline.applyLines(lines);
      } else {
        part = await postChunk(opts, chunk);
      }
      report.accepted += part.accepted;
      report.rejected += part.rejected;
      for (const e of part.errors) if (report.errors.length < 1000) report.errors.push(e);
      done += chunk.length;
      bar?.update(done, { rejected: report.rejected });
    }
    bar?.update(total, { rejected: report.rejected });
  } finally {
    bar?.stop();
    await service?.close();
  }
  return report;
}

/** Sends one chunk; the server numbers lines from 1 per request, so errors are shifted back. */
async function postChunk(opts: ReplayOptions, chunk: Array<{ n: number; text: string }>): Promise<FeedReport> {
  const first = chunk[0]?.n ?? 1;
  const res = await fetch(new URL('/admin/v1/feed', opts.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'x-admin-key': opts.adminKey ?? '' },
    body: chunk.map((l) => l.text).join('\n'),
  });
  const body = (await res.json().catch(() => null)) as (FeedReport & { message?: string }) | null;
  if (!res.ok || body === null) {
    throw new Error(`feed ingress answered HTTP ${res.status}: ${body?.message ?? 'no details'}`);
  }
  return { ...body, errors: body.errors.map((e) => ({ ...e, line: e.line + first - 1 })) };
}
