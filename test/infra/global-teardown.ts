/** The infra project's jest globalTeardown: removes this run's synthesized stages (global-setup.ts). */
import { rmSync } from "node:fs";

export default function globalTeardown(): void {
  // SYNTH_DIR_ENV of global-setup.ts (Node's type stripping cannot import it by its `.js` name).
  const dir = process.env.TEST_INFRA_SYNTH_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
