/**
 * The ingest's state machine (infra/constructs/ingest.ts) run in this process, for tests and local
 * runs: the step is called while it answers `running`, again after a wait while `waiting`; a step
 * that throws is followed by one call with `crash` set (the abort), and a `failed` ingest, or an
 * abort that throws, ends as a dead letter.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { InboxObject } from "./inbox.js";
import type { IngestState } from "./ingest-state.js";

export interface LocalExecution {
  readonly state: IngestState;
  /** The state sent to the dead-letter queue, if the ingest failed. */
  readonly deadLetter?: IngestState;
}

type Step = (state: IngestState) => Promise<IngestState>;

const crashOf = (error: unknown) => ({
  Error: error instanceof Error ? error.name : "Error",
  Cause: error instanceof Error ? error.message : String(error),
});

export async function runLocalExecution(
  object: InboxObject,
  step: Step,
  options: { readonly waitMs?: number } = {},
): Promise<LocalExecution> {
  let state: IngestState = { object };
  for (;;) {
    try {
      state = await step(state);
    } catch (error) {
      const crashed = { ...state, crash: crashOf(error) };
      try {
        state = await step(crashed);
      } catch (abortError) {
        return { state: crashed, deadLetter: { ...crashed, crash: crashOf(abortError) } };
      }
    }
    if (state.status === "running") continue;
    if (state.status === "waiting") await sleep(options.waitMs ?? 30_000);
    else if (state.status === "failed" || state.status === undefined) return { state, deadLetter: state };
    else return { state };
  }
}
