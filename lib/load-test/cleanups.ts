/**
 * What undoes a run's setup (its keys on a running server, its own server), undone newest first:
 * at the run's end, or once on Ctrl-C, which then exits 130. Ctrl-C may come twice (from the
 * terminal, and relayed by a parent): the first one cleans up.
 */
import { say } from "../cli/terminal-text.js";
export class Cleanups {
  private readonly steps: (() => Promise<void>)[] = [];
  private interrupted: Promise<void> | undefined;
  private readonly onInterrupt = () => {
    if (this.interrupted) return;
    say("interrupted: cleaning up…");
    this.interrupted = this.run().finally(() => process.exit(130));
  };

  constructor() {
    process.on("SIGINT", this.onInterrupt);
  }

  readonly add = (step: () => Promise<void>): void => {
    this.steps.push(step);
  };

  /** Undoes what was set up so far; a later step added is undone by the next call. */
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) await step();
  }

  /** Undoes the rest, and stops listening for Ctrl-C. */
  async close(): Promise<void> {
    process.off("SIGINT", this.onInterrupt);
    await this.run();
  }
}
