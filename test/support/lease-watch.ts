/**
 * A taker's clock for lease take-overs in tests (`WriterOptions.leaseWatch`): it moves only when
 * the taker waits, by what it waits, after `beforeEachWait` (default: at once). A holder that never
 * renews is then taken over without waiting out a real lease period; one that renews is not.
 */
import type { LeaseWatch } from "../../lib/store/dynamo/manifest/manifest.js";

export function fakeWatch(beforeEachWait: () => Promise<void> = async () => {}): LeaseWatch {
  let now = 0;
  return {
    now: () => now,
    wait: async (ms) => {
      await beforeEachWait();
      now += ms;
    },
  };
}
