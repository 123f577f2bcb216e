/**
 * Jest's order of files, with a start for a clean clone. Jest runs the files that failed last time
 * first, then the longest first, by the times of the last run in its cache; a file it has no time
 * for goes before those, biggest first. A clean clone (CI) has no times, and file size says little:
 * the longest files would start late and run alone at the end. So a file with no time of its own
 * gets one from SLOWEST (measured with `npm test`; a file missing from it only starts later), an
 * engine's or synthesis's file a middling one, any other file a short one.
 */
import sequencer from "@jest/test-sequencer";

// A CommonJS module built from ESM: its class is the `default` of its exports.
const Sequencer = sequencer.default;

/** Seconds each took in a whole `npm test` run (docs/testing.md). Only the order matters. */
const SLOWEST = {
  "test/load/crash.integration.test.ts": 200,
  "test/bench/scale-cost-budget.integration.test.ts": 150,
  "test/ingest/ingest.integration.test.ts": 140,
  "test/store/dynamo/write/repair-every-item.integration.test.ts": 110,
  "test/load/fenced-loads.integration.test.ts": 95,
  "test/store/dynamo/write/repair-interrupted.integration.test.ts": 85,
  "test/store/dynamo/structures/scope-postings.integration.test.ts": 85,
  "test/load/changes.property.integration.test.ts": 85,
  "test/store/dynamo/read/lagging-index.integration.test.ts": 75,
  "test/load/identity.integration.test.ts": 65,
  "test/cli/commands.integration.test.ts": 60,
  "test/load/searches-during-load.integration.test.ts": 60,
  "test/ingest/load-cli-inbox.integration.test.ts": 58,
  "test/bench/cost-budget.integration.test.ts": 56,
  "test/infra/dev-stage.integration.test.ts": 55,
  "test/client/package.integration.test.ts": 50,
};

const ESTIMATE_S = { integration: 20, infra: 20, browser: 20, unit: 1 };

export default class SlowestFirst extends Sequencer {
  sort(tests) {
    const estimated = (test) => {
      const relative = test.path.slice(test.context.config.rootDir.length + 1);
      const project = test.context.config.displayName?.name ?? "unit";
      return (SLOWEST[relative] ?? ESTIMATE_S[project] ?? 1) * 1000;
    };
    // super.sort sets each test's duration from jest's cache (undefined if it has none).
    const sorted = super.sort(tests);
    // Failed files still first, longest first among them.
    const rank = (test) => (this.hasFailed(test) ? 1e12 : 0) + (test.duration ?? estimated(test));
    return [...sorted].sort((a, b) => rank(b) - rank(a));
  }
}
