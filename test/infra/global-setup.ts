/**
 * The infra project's jest globalSetup: a folder for the stages synthesized in this run, which
 * test/infra/synth.ts fills once per stage and options and every file reads. Workers are forked
 * after globalSetup, so they inherit the variable. Loaded by Node's own type stripping: no imports
 * of project files.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SYNTH_DIR_ENV = "TEST_INFRA_SYNTH_DIR";

export default function globalSetup(): void {
  process.env[SYNTH_DIR_ENV] = mkdtempSync(join(tmpdir(), "infra-synth-"));
}
