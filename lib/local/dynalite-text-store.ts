/**
 * dynalite, loaded so that its in-memory LevelDB keeps keys and values as text. memory-level
 * stores buffers by default: each key comparison in its tree is then a byte loop in JavaScript,
 * and each read decodes bytes into a string before dynalite's JSON.parse. Together that was about
 * a sixth of a loading test's CPU. dynalite's keys are ASCII (its sub-database prefixes, table
 * names, hex of the key bytes, `~` and `/`), so comparing them as strings orders them exactly as
 * comparing bytes does.
 *
 * dynalite reads `MemoryLevel` from memory-level once, when its `db` module loads. So the
 * default has to change before dynalite is first required, and dynalite is only reached
 * through `loadDynalite()`. A LevelDB folder on disk (`path`) is classic-level and is not
 * affected.
 */
import { createRequire } from "node:module";
import type dynaliteFunction from "dynalite";

type MemoryLevelClass = new (options?: Record<string, unknown>) => object;

let loaded: typeof dynaliteFunction | undefined;

export function loadDynalite(): typeof dynaliteFunction {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  // memory-level as dynalite resolves it, in case a second copy is ever installed beside it.
  const fromDynalite = createRequire(require.resolve("dynalite"));
  const memoryLevel = fromDynalite("memory-level") as { MemoryLevel: MemoryLevelClass };
  const Buffered = memoryLevel.MemoryLevel;
  memoryLevel.MemoryLevel = class TextMemoryLevel extends Buffered {
    constructor(options?: Record<string, unknown>) {
      super({ storeEncoding: "utf8", ...options });
    }
  };
  loaded = require("dynalite") as typeof dynaliteFunction;
  return loaded;
}
