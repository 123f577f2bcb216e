/**
 * Which entries a load touched per company (touched-entries.ts): the families a derive reads, a
 * company derived whole once it is touched past the bound or marked so, and a checkpoint's form.
 */
import { instantKey } from "../../../../lib/directory/instant-key.js";
import { orderKey } from "../../../../lib/store/binary-keys.js";
import { keyText } from "../../../../lib/store/dynamo/model/batch.js";
import {
  companyPartition,
  entrySort,
  FAMILY,
  personPartition,
} from "../../../../lib/store/dynamo/model/layout.js";
import {
  CompaniesToDerive,
  MAX_TOUCHED_ENTRIES,
  touchedEntries,
} from "../../../../lib/store/dynamo/write/touched-entries.js";
import { testUuid } from "../../../support/records.js";

const order = (n: number) => orderKey(instantKey("2024-01-01T00:00:00Z"), testUuid(0x70, 1, n));
const entry = (company: string, family: number, n: number, gen = 3) => ({
  p: companyPartition(company),
  s: entrySort(family as 0x01, order(n), gen),
});

describe("touched entries", () => {
  it("are the key and names entries of each company; record items, person names and bundles are not", () => {
    const touched = touchedEntries([
      entry("acme", FAMILY.employmentKey, 1),
      entry("acme", FAMILY.employmentNames, 1),
      entry("acme", FAMILY.record, 1),
      entry("acme", FAMILY.personNames, 2),
      entry("beta", FAMILY.personKey, 2),
      { p: personPartition(testUuid(0x70, 2, 1)), s: Uint8Array.of(0, 0, 0, 3, 0, 0) as never },
    ]);
    expect([...touched.keys()]).toEqual(["acme", "beta"]);
    expect(touched.get("acme")).toEqual([
      keyText(entry("acme", FAMILY.employmentKey, 1)),
      keyText(entry("acme", FAMILY.employmentNames, 1)),
    ]);
  });

  it("derive a company by them until it is touched past the bound, then whole", () => {
    const derive = new CompaniesToDerive();
    derive.note(touchedEntries([entry("acme", FAMILY.employmentKey, 1)]));
    expect(derive.touchedIn("acme")?.map(keyText)).toEqual([keyText(entry("acme", FAMILY.employmentKey, 1))]);
    const many = Array.from({ length: MAX_TOUCHED_ENTRIES }, (_, i) =>
      entry("acme", FAMILY.employmentKey, i + 2),
    );
    derive.note(touchedEntries(many));
    expect(derive.companies.has("acme")).toBe(true);
    expect(derive.touchedIn("acme")).toBeUndefined();
    // Whole stays whole.
    derive.note(touchedEntries([entry("acme", FAMILY.employmentKey, 1)]));
    expect(derive.touchedIn("acme")).toBeUndefined();
  });

  it("derive a company marked whole (a repair) whole, and keep both through a checkpoint", () => {
    const derive = new CompaniesToDerive();
    derive.note(touchedEntries([entry("acme", FAMILY.employmentKey, 1), entry("beta", FAMILY.personKey, 1)]));
    derive.whole("beta");
    const resumed = new CompaniesToDerive([...derive.companies], derive.touchedRecord());
    expect([...resumed.companies].sort()).toEqual(["acme", "beta"]);
    expect(resumed.touchedIn("acme")?.length).toBe(1);
    expect(resumed.touchedIn("beta")).toBeUndefined();
    resumed.done("acme");
    expect(resumed.companies.has("acme")).toBe(false);
    // A checkpoint of a load before deltas: every company whole.
    expect(new CompaniesToDerive(["acme"]).touchedIn("acme")).toBeUndefined();
  });
});
