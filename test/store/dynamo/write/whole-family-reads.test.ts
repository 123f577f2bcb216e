/** When a load reads a partition's gram blocks in one read of its postings family (pure). */
import { GramCensus } from "../../../../lib/store/dynamo/structures/name-grams.js";
import { readsWholeFamily } from "../../../../lib/store/dynamo/write/derive-gram-blocks.js";

const SIZES = { target: 1024, max: 2048, min: 256 };

/** A census of `grams` grams, each held by `holders` records. */
function censusOf(grams: number, holders: number): GramCensus {
  const census = new GramCensus();
  for (let gram = 0; gram < grams; gram += 1)
    for (let holder = 0; holder < holders; holder += 1)
      census.add([{ field: "lastName", text: `g${gram}` }], 1);
  return census;
}

describe("readsWholeFamily", () => {
  it("reads a small partition whole when many of its grams change", () => {
    // 600 grams of 3 holders: 3 postings of 256 B and a block of 128 + 3 x 64 B each, 652,800 B,
    // no more than 160 Queries' 4 KB.
    expect(readsWholeFamily(censusOf(600, 3), 160, SIZES)).toBe(true);
    expect(readsWholeFamily(censusOf(600, 3), 300, SIZES)).toBe(true);
  });

  it("queries gram by gram where the whole family would cost more than the Queries", () => {
    expect(readsWholeFamily(censusOf(600, 3), 159, SIZES)).toBe(false);
    expect(readsWholeFamily(censusOf(20_000, 10), 300, SIZES)).toBe(false);
  });

  it("counts a block for every `min` postings of a gram, each at most 2 KB", () => {
    // One gram of 4,096 holders: 1 MiB of postings, and 16 full blocks of 2 KB (1,081,344 B in
    // all, under 300 Queries' 1,228,800 B), or 256 blocks of 16 (294,912 B: 1,343,488 B, over).
    expect(readsWholeFamily(censusOf(1, 4_096), 300, SIZES)).toBe(true);
    expect(readsWholeFamily(censusOf(1, 4_096), 300, { target: 64, max: 128, min: 16 })).toBe(false);
  });

  it("reads an empty partition whole: there is nothing to read", () => {
    expect(readsWholeFamily(new GramCensus(), 2, SIZES)).toBe(true);
  });
});
