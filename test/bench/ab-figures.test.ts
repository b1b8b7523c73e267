// A/B bench figures: every number of a results file is found, medians and ratios are over the rounds each build reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareRounds, flattenFigures, median, type RunResults } from '../../bench/ab-figures.js';
import { formatComparison } from '../../bench/ab.js';

function capacityRun(tickP50: number, reads: number, extra: Record<string, unknown> = {}): RunResults {
  return {
    sections: [
      {
        name: 'capacity',
        rows: [{ target: 'service: live odds under ticks', median: { requestsPerSec: reads, serverCpuPercent: null } }],
        checks: [{ label: 'capacity: tick p99', value: tickP50 * 2 }],
        data: {
          ticks: { p50Ms: tickP50, p99Ms: tickP50 * 2 },
          tickRecords: Array.from({ length: 100 }, (_, i) => ({ ms: i })),
          memory: { maxWhileTickingBytes: 512 * 2 ** 20 },
          ...extra,
        },
      },
    ],
  };
}

describe('A/B bench figures', () => {
  it('flattens rows, checks and numeric data leaves, and skips long arrays of records and non-numbers', () => {
    const f = flattenFigures(capacityRun(80, 900, { label: 'x', short: [1, 2] }));
    assert.equal(f.get('capacity/data.ticks.p50Ms'), 80);
    assert.equal(f.get('capacity/rows.service: live odds under ticks.requestsPerSec'), 900);
    assert.equal(f.get('capacity/checks.capacity: tick p99'), 160);
    assert.equal(f.get('capacity/data.short.1'), 2);
    assert.equal(f.has('capacity/rows.service: live odds under ticks.serverCpuPercent'), false);
    assert.equal(f.has('capacity/data.label'), false);
    assert.equal(
      [...f.keys()].some((k) => k.includes('tickRecords')),
      false,
    );
  });

  it('median of odd and even counts', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  it('compares medians over rounds, headlines first and scaled, ratio candidate / reference', () => {
    const ref = [capacityRun(80, 900), capacityRun(100, 700), capacityRun(90, 800)];
    const cand = [capacityRun(240, 300), capacityRun(230, 320), capacityRun(250, 310)];
    const figures = compareRounds(ref, cand, false);
    const tick = figures.find((f) => f.label === 'tick p50 (ms)');
    assert.ok(tick);
    assert.deepEqual(tick.reference, [80, 100, 90]);
    assert.equal(tick.referenceMedian, 90);
    assert.equal(tick.candidateMedian, 240);
    assert.equal(tick.ratio, 240 / 90);
    const rss = figures.find((f) => f.label === 'RSS max while ticking (MB)');
    assert.equal(rss?.referenceMedian, 512);
    assert.equal(rss?.ratio, 1);
    assert.equal(figures[0]?.label, 'tick p50 (ms)', 'headlines keep their order');
    assert.equal(
      figures.some((f) => f.path === 'capacity/checks.capacity: tick p99'),
      false,
      'without --all, only headlines',
    );
    assert.ok(compareRounds(ref, cand, true).some((f) => f.path === 'capacity/checks.capacity: tick p99'));
  });

  it('a headline only one build reports is shown without a ratio', () => {
    const ref = [capacityRun(80, 900)];
    const cand = [capacityRun(160, 450, { restart: { readyMs: 12_000 } })];
    const restart = compareRounds(ref, cand, false).find((f) => f.path === 'capacity/data.restart.readyMs');
    assert.ok(restart);
    assert.equal(restart.candidateMedian, 12);
    assert.ok(Number.isNaN(restart.referenceMedian));
    assert.ok(Number.isNaN(restart.ratio));
  });

  it('another figure only one build reports is left out; a round that missed a figure is not counted in its median', () => {
    const ref = [capacityRun(80, 900, { onlyRef: 1 }), { sections: [] }];
    const cand = [capacityRun(160, 450), capacityRun(200, 450)];
    const figures = compareRounds(ref, cand, true);
    assert.equal(
      figures.some((f) => f.path.includes('onlyRef')),
      false,
    );
    const tick = figures.find((f) => f.label === 'tick p50 (ms)');
    assert.equal(tick?.referenceMedian, 80);
    assert.ok(Number.isNaN(tick?.reference[1]));
    assert.equal(tick?.ratio, 180 / 80);
  });

  it('prints one line per figure with both medians, the ratio and each round', () => {
    const figures = compareRounds([capacityRun(80, 900)], [capacityRun(240, 300)], false);
    const text = formatComparison(figures, 'ref', 'new');
    const line = text.split('\n').find((l) => l.startsWith('tick p50 (ms)'));
    assert.ok(line);
    assert.match(line, /\b80\s+240\s+3\.00x/);
  });
});
