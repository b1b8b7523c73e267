// Replays an NDJSON feed file into a running service (POST /admin/v1/feed) or straight into the embedded store, sending refused lines again.
import { SingleBar, Presets } from 'cli-progress';
import { access, constants } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Config } from './config.js';
import { countLines, parseNdjsonLine, type NdjsonLine } from './feed/ndjson.js';
import { orderKeyOf } from './feed/order-key.js';
import type { FeedLineError, FeedReport } from './pipeline/outcome.js';
import { RetryQueue, SYSTEM_RETRY_CLOCK, type RetryClock, type Verdict } from './pipeline/retry-queue.js';
import { createService } from './roles/index.js';

export interface ReplayOptions {
  file: string;
  /** Base URL of a running service; absent = apply into the configured store (DATABASE_URL, else `config.dataDir`). */
  url?: string;
  adminKey?: string;
  /** Lines per request / per pipeline batch. */
  batch: number;
  progress: boolean;
  /**
   * Attempts per line refused for a transient reason (`retryable`), and per request answered 503
   * or not answered at all, before giving up (default 8).
   */
  attempts?: number;
  /** First wait before sending again, ms (doubles per attempt up to 30 s; default 500). */
  retryDelayMs?: number;
  /** Clock and sleep (tests). */
  clock?: RetryClock;
}

export interface ReplayReport extends FeedReport {
  /** Lines sent again after a transient refusal (each time counted). */
  retried: number;
  /** Whole requests sent again after a 503 or no answer. */
  requestsRetried: number;
  /** Lines still refused after every attempt (also in `errors`). */
  gaveUp: number;
}

const MAX_DELAY_MS = 30_000;

function newBar(enabled: boolean, total: number): SingleBar | null {
  if (!enabled) return null;
  const bar = new SingleBar(
    { format: 'replay [{bar}] {percentage}% | {value}/{total} lines | {rejected} rejected | eta {eta_formatted}' },
    Presets.shades_classic,
  );
  bar.start(total, 0, { rejected: 0 });
  return bar;
}

interface Line {
  n: number;
  text: string;
  /** Why it was last refused (for the report when it is given up). */
  last?: FeedLineError;
}

/** Reads the non-blank lines in chunks of `size`, keeping their line numbers. */
async function* chunks(file: string, size: number): AsyncGenerator<Line[]> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  let buf: Line[] = [];
  for await (const text of rl) {
    n++;
    if (text.trim() === '') continue;
    buf.push({ n, text });
    if (buf.length >= size) {
      yield buf;
      buf = [];
    }
  }
  if (buf.length > 0) yield buf;
}

/** The order key of a raw line (lines that do not parse are never held, so any key will do). */
function keyOfLine(l: Line): string {
  try {
    return orderKeyOf(JSON.parse(l.text) as { event_id?: string; tournament_id?: string });
  } catch {
    return '';
  }
}

const backoffMs = (initial: number, attempt: number): number =>
  Math.min(MAX_DELAY_MS, initial * 2 ** Math.max(0, attempt - 1));

export async function replay(config: Config, opts: ReplayOptions): Promise<ReplayReport> {
  await access(opts.file, constants.R_OK).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${opts.file}: ${err.code ?? err.message}`);
  });
  const attempts = opts.attempts ?? 8;
  const initialMs = opts.retryDelayMs ?? 500;
  const clock = opts.clock ?? SYSTEM_RETRY_CLOCK;
  const total = await countLines(opts.file);
  const bar = newBar(opts.progress, total);
  const report: ReplayReport = { accepted: 0, rejected: 0, errors: [], retried: 0, requestsRetried: 0, gaveUp: 0 };
  const addError = (e: FeedLineError): void => {
    report.rejected++;
    if (report.errors.length < 1000) report.errors.push(e);
  };
  const service = opts.url === undefined ? await createService({ ...config, feed: 'none' }) : null;

  /** Sends lines (numbered 1… in the request) and turns the report into a verdict per line. */
  const send = async (lines: Line[]): Promise<FeedReport> => {
    if (service === null) return postLines(opts, lines, { attempts, initialMs, clock, report });
    const parsed = lines.map((l, i) => parseNdjsonLine(l.text, i + 1)).filter((l): l is NdjsonLine => l !== null);
    return service.pipeline.applyLines(parsed);
  };
  const queue = new RetryQueue<Line>({
    async deliver(lines) {
      const part = await send(lines);
      const byLine = new Map(part.errors.map((e) => [e.line, e]));
      return lines.map((l, i): Verdict => {
        const e = byLine.get(i + 1);
        if (e === undefined) {
          report.accepted++;
          return 'accepted';
        }
        if (e.retryable === true) {
          l.last = { ...e, line: l.n };
          return 'retry';
        }
        addError({ ...e, line: l.n });
        return 'rejected';
      });
    },
    keyOf: keyOfLine,
    clock,
    backoff: { initialMs, maxMs: MAX_DELAY_MS, factor: 2 },
    maxHeld: Math.max(opts.batch * 4, 1_000),
    maxAttempts: attempts,
    onGiveUp(l, tries) {
      report.gaveUp++;
      const last = l.last;
      addError({
        line: l.n,
        error: last?.error ?? 'service_unavailable',
        message: `given up after ${tries} attempts: ${last?.message ?? 'refused'}`,
        ...(last?.component !== undefined ? { component: last.component } : {}),
        retryable: true,
      });
    },
  });
  try {
    let done = 0;
    for await (const chunk of chunks(opts.file, opts.batch)) {
      await queue.submit(chunk);
      done = chunk[chunk.length - 1]?.n ?? done;
      bar?.update(done, { rejected: report.rejected });
    }
    // What is still refused: sent again as its backoff passes, until taken or given up.
    for (let guard = 0; queue.size > 0 && guard < attempts * 1_000; guard++) {
      const due = queue.nextRetryAt ?? clock.now();
      await clock.sleep(Math.max(0, due - clock.now()));
      await queue.retryDue();
    }
    bar?.update(total, { rejected: report.rejected });
  } finally {
    bar?.stop();
    report.retried = queue.counts.retried;
    await queue.stop();
    await service?.close();
  }
  report.errors.sort((a, b) => a.line - b.line);
  return report;
}

/**
 * Posts lines as one NDJSON body; the server numbers them from 1. A 503 (nothing applied) or no
 * answer at all is sent again whole, backing off, up to `attempts` times.
 */
async function postLines(
  opts: ReplayOptions,
  lines: Line[],
  r: { attempts: number; initialMs: number; clock: RetryClock; report: ReplayReport },
): Promise<FeedReport> {
  const body = lines.map((l) => l.text).join('\n');
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(new URL('/admin/v1/feed', opts.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'x-admin-key': opts.adminKey ?? '' },
        body,
      });
    } catch (err) {
      if (attempt >= r.attempts) {
        const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
        throw new Error(`feed ingress did not answer after ${attempt} attempts: ${cause}`);
      }
      r.report.requestsRetried++;
      await r.clock.sleep(backoffMs(r.initialMs, attempt));
      continue;
    }
    const answer = (await res.json().catch(() => null)) as (FeedReport & { message?: string }) | null;
    if (res.status === 503 && attempt < r.attempts) {
      r.report.requestsRetried++;
      const retryAfterMs = Number(res.headers.get('retry-after') ?? 0) * 1000;
      await r.clock.sleep(Math.max(retryAfterMs, backoffMs(r.initialMs, attempt)));
      continue;
    }
    if (!res.ok || answer === null) {
      throw new Error(`feed ingress answered HTTP ${res.status}: ${answer?.message ?? 'no details'}`);
    }
    return answer;
  }
}
