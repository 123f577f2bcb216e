/**
 * A progress bar on stderr (stdout carries the table). On a terminal it redraws one line; into a
 * file or pipe it writes a line every tenth, so logs stay short.
 */
export interface Progress {
  start(label: string, total: number): void;
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  let label = "";
  let total = 1;
  let shown = -1;
  let started = 0;
  const draw = (done: number, final: boolean) => {
    const fraction = Math.min(1, done / total);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const bar = "#".repeat(Math.round(fraction * WIDTH)).padEnd(WIDTH, ".");
    const text = `${label} [${bar}] ${Math.floor(fraction * 100)}% ${done}/${total} ${seconds}s`;
    if (stream.isTTY) stream.write(`\r${text.padEnd(100)}${final ? "\n" : ""}`);
    else stream.write(`${text}\n`);
  };
  return {
    start(nextLabel, nextTotal) {
      label = nextLabel;
      total = Math.max(1, nextTotal);
      shown = -1;
      started = performance.now();
      draw(0, false);
    },
    update(done) {
      const step = Math.floor((Math.min(done, total) / total) * (process.stderr.isTTY ? 100 : 10));
      if (step === shown) return;
      shown = step;
      if (done < total) draw(done, false);
    },
    finish() {
      draw(total, true);
    },
  };
}
