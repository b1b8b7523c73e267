// The start's progress lines: one when a stretch starts, then one every few seconds in a log, and a last line with how long it took.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StartProgress } from '../../src/start-progress.js';

function fakeOut(tty: boolean): {
  text: string[];
  write(t: string): boolean;
  isTTY: boolean;
  columns: number;
  cursorTo(): boolean;
  clearLine(): boolean;
  moveCursor(): boolean;
} {
  return {
    text: [],
    isTTY: tty,
    columns: 100,
    write(t: string) {
      this.text.push(t);
      return true;
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
  };
}

describe('start progress', () => {
  it('in a log: a line at once, then at most one every 5 s, and a last line with the time taken', () => {
    const clock = { t: 1_000 };
    const out = fakeOut(false);
    const p = new StartProgress('loading the simulated world', 'events', out, 5000, () => clock.t);
    p.update(0, 2_400);
    clock.t += 1000;
    p.update(300, 2_400);
    clock.t += 4000;
    p.update(1_200, 2_400);
    clock.t += 2500;
    p.finish(2_400, 2_400);
    assert.deepEqual(out.text, [
      '  loading the simulated world: 0 of 2,400 events (0%), 0.0 s\n',
      '  loading the simulated world: 1,200 of 2,400 events (50%), 5.0 s\n',
      '  loading the simulated world: 2,400 of 2,400 events (100%) in 7.5 s\n',
    ]);
  });

  it('on a terminal: a bar redrawn in place, ended by the same last line', () => {
    const clock = { t: 0 };
    const out = fakeOut(true);
    const p = new StartProgress('restoring the stored events', 'events', out, 5000, () => clock.t);
    p.update(10, 100);
    p.update(60, 100);
    clock.t = 2000;
    p.finish(100, 100);
    const all = out.text.join('');
    assert.match(all, /restoring the stored events \[.*\] \d+% \| \d+\/100 events/);
    assert.ok(out.text.at(-1)?.endsWith('100 of 100 events (100%) in 2.0 s\n'), out.text.at(-1));
  });
});
