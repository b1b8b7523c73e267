// Section `grading`: outcomes graded per second by the market catalog over real final books, against a loop that only visits them.
import { gradeMarket } from '../src/domain/grading/catalog.js';
import type { GradingInput } from '../src/domain/grading/types.js';
import type { Market } from '../src/domain/types.js';
import { median } from './measure.js';
import { check, type Section, type SectionResult } from './section.js';
import { benchWorld, finalBook, finishedGame, type FinalBook } from './settlement-books.js';

const TARGET_OUTCOMES_PER_SEC = 1_000_000;
const ROUNDS = 5;
const ROUND_MS = 600;
const WARMUP_MS = 1_500;

/** The soccer book is the one the target is about; the others add other families and rules to the mix. */
const BOOKS: ReadonlyArray<{ sport: string; seed: number }> = [
  { sport: 'soccer', seed: 11 },
  { sport: 'tennis', seed: 12 },
  { sport: 'basketball', seed: 13 },
  { sport: 'ice_hockey', seed: 14 },
  { sport: 'cs2', seed: 15 },
];

interface Pass {
  outcomes: number;
  /** Folded into a global so the JIT cannot drop the work. */
  sink: number;
}

function gradePass(books: readonly FinalBook[]): Pass {
  let outcomes = 0;
  let sink = 0;
  for (const b of books) {
    const input: GradingInput = b.input;
    for (const m of b.markets) {
      const g = gradeMarket(m, input);
      if (g.status === 'graded') {
        outcomes += g.outcomes.length;
        sink += g.outcomes[0]?.result === 'won' ? 1 : 0;
      }
    }
  }
  return { outcomes, sink };
}

/** The cost of visiting the data: every outcome's code and odds read, nothing decided. */
function visitPass(books: readonly FinalBook[]): Pass {
  let outcomes = 0;
  let sink = 0;
  for (const b of books) {
    const markets: Market[] = b.markets;
    for (const m of markets) {
      for (const o of m.outcomes) {
        sink += o.code.length + o.odds;
        outcomes++;
      }
    }
  }
  return { outcomes, sink };
}

/** Every pass adds to it and the results carry it: the JIT cannot drop a pass whose result is used. */
let globalSink = 0;

/** Whole passes for about `ms`; returns outcomes per second. */
function timedRound(pass: (books: readonly FinalBook[]) => Pass, books: readonly FinalBook[], ms: number): number {
  let outcomes = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    const p = pass(books);
    outcomes += p.outcomes;
    globalSink += p.sink;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return outcomes / (elapsed / 1000);
}

export const gradingSection: Section = {
  name: 'grading',
  description:
    'outcomes graded per second by the market catalog (final books of soccer, tennis, basketball, ice hockey, CS2)',
  run(ctx): Promise<SectionResult> {
    const started = Date.now();
    const world = benchWorld();
    const books = BOOKS.map((b, i) => finalBook(finishedGame({ ...b, day: i, world })));
    const counts = books.map((b) => ({
      sport: b.sport,
      markets: b.markets.length,
      outcomes: b.markets.reduce((n, m) => n + m.outcomes.length, 0),
    }));
    const perPass = counts.reduce((n, c) => n + c.outcomes, 0);
    ctx.log(`books: ${counts.map((c) => `${c.sport} ${c.markets} markets / ${c.outcomes} outcomes`).join(', ')}`);

    // Every market must really be graded, or the rate would flatter skipped work.
    const statuses = new Map<string, number>();
    for (const b of books) {
      for (const m of b.markets) {
        const g = gradeMarket(m, b.input);
        const key = g.status === 'graded' ? 'graded' : `${g.status}: ${g.reason}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    }
    const notGraded = [...statuses].filter(([k]) => k !== 'graded');

    timedRound(gradePass, books, WARMUP_MS);
    timedRound(visitPass, books, WARMUP_MS / 4);
    const grading: number[] = [];
    const visiting: number[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      // Interleaved, so drift (thermal, neighbours) touches both alike.
      grading.push(timedRound(gradePass, books, ROUND_MS));
      visiting.push(timedRound(visitPass, books, ROUND_MS / 4));
      ctx.log(
        `[grading] round ${r}/${ROUNDS}: ${fmt(grading.at(-1)!)} outcomes/s graded, ${fmt(visiting.at(-1)!)} visited`,
      );
    }
    const rate = median(grading);
    const baseline = median(visiting);
    const seconds = (Date.now() - started) / 1000;
    const notes = [
      `grading: ${fmt(rate)} outcomes/s graded (median of ${ROUNDS} rounds of ${ROUND_MS} ms; rounds ${grading.map(fmt).join(', ')})`,
      `grading: ${perPass.toLocaleString('en-US')} outcomes in ${books.reduce((n, b) => n + b.markets.length, 0).toLocaleString('en-US')} markets per pass ` +
        `(${counts.map((c) => `${c.sport} ${c.markets}/${c.outcomes}`).join(', ')}), ${fmt(rate / perPass)} passes/s`,
      `grading: baseline (reading every outcome's code and odds) ${fmt(baseline)} outcomes/s; grading/baseline = ${(rate / baseline).toFixed(4)} ` +
        `(grading costs ${(baseline / rate).toFixed(0)}x a visit)`,
      `grading: section took ${seconds.toFixed(1)} s`,
    ];
    for (const [k, n] of notGraded) notes.push(`WARNING: grading: ${n} market(s) not graded (${k})`);
    return Promise.resolve({
      rows: [],
      checks: [
        check('grading', 'grading: outcomes graded per second', rate, '>=', TARGET_OUTCOMES_PER_SEC, 'outcomes/s'),
      ],
      notes,
      data: {
        outcomesPerSec: rate,
        rounds: grading,
        baselineOutcomesPerSec: baseline,
        baselineRounds: visiting,
        books: counts,
        seconds,
        checksum: globalSink,
      },
    });
  },
};

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
