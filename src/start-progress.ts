// What a long stretch of `serve`'s start is doing and how far along it is: a bar on a terminal, a plain line every few seconds otherwise.
import { Presets, SingleBar } from 'cli-progress';

export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * One stretch (restoring the store, loading the simulated world). On a terminal a bar redrawn in
 * place; in a log (CI, systemd, docker) a line when it starts and then every `everyMs`, so a
 * stretch never sits silent for longer than that.
 */
export class StartProgress {
  private bar: SingleBar | null = null;
  private lastLine = -Infinity;
  private readonly startedAt: number;

  constructor(
    private readonly what: string,
    private readonly unit: string,
    private readonly out: ProgressOut = process.stdout,
    private readonly everyMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  update(done: number, of: number): void {
    if (this.out.isTTY === true) {
      if (this.bar === null) {
        this.bar = new SingleBar(
          {
            format: `  ${this.what} [{bar}] {percentage}% | {value}/{total} ${this.unit} | {duration}s`,
            stream: this.out as NodeJS.WriteStream,
            hideCursor: true,
          },
          Presets.shades_classic,
        );
        this.bar.start(of, done);
      } else {
        this.bar.setTotal(of);
        this.bar.update(done);
      }
      return;
    }
    const t = this.now();
    if (t - this.lastLine < this.everyMs) return;
    this.lastLine = t;
    this.out.write(`  ${this.what}: ${line(done, of, this.unit)}, ${this.seconds()} s\n`);
  }

  /** Ends the stretch with a last line (`done` of `of`, and how long it took). */
  finish(done: number, of: number): void {
    if (this.bar !== null) {
      this.bar.update(done);
      this.bar.stop();
      this.bar = null;
    }
    this.out.write(`  ${this.what}: ${line(done, of, this.unit)} in ${this.seconds()} s\n`);
  }

  private seconds(): string {
    return ((this.now() - this.startedAt) / 1000).toFixed(1);
  }
}

function line(done: number, of: number, unit: string): string {
  const pct = of > 0 ? Math.floor((100 * done) / of) : 0;
  return `${done.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} ${unit} (${pct}%)`;
}
