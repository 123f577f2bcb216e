/**
 * The bench's dynalite in a process of its own: it answers over its endpoint, in memory or with
 * its table in a folder on disk, and stop() ends it and removes the folder.
 */
import { existsSync } from "node:fs";
import { startDynaliteProcess } from "../../lib/bench/dynalite-process.js";
import { partitionOf, queryPartition } from "../local/engine-partition.js";

async function useEngine(
  onDisk: boolean,
): Promise<{ folder: string | undefined; existed: boolean; answered: number }> {
  const engine = await startDynaliteProcess(onDisk ? "disk" : "memory");
  const { folder } = engine;
  try {
    const documents = await partitionOf(engine, 5);
    let answered = 0;
    for (let i = 0; i < 20; i += 1) answered += await queryPartition(documents, 1);
    return { folder, existed: folder !== undefined && existsSync(folder), answered };
  } finally {
    await engine.stop();
  }
}

test("on disk: answers, then stop() ends the process and removes its folder", async () => {
  const { folder, existed, answered } = await useEngine(true);
  expect(answered).toBe(20);
  expect(existed).toBe(true);
  expect(existsSync(folder as string)).toBe(false);
});

test("in memory: answers, with no folder", async () => {
  const { folder, answered } = await useEngine(false);
  expect(answered).toBe(20);
  expect(folder).toBeUndefined();
});
