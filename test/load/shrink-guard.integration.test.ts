/**
 * A snapshot's shrink guard (docs/data-format.md): a snapshot that would delete more than 10% of
 * the stored employee records or persons is refused, naming the count and the flag, and changes
 * nothing; 10% or less applies; allowed, any share applies. On every store.
 */
import { ShrinkRefusedError } from "../../lib/load/shrink-guard.js";
import {
  dataText,
  describeEachStore,
  E,
  employee,
  employeeIds,
  load,
  P,
  person,
  seen,
} from "./load-harness.js";

const TEN = Array.from({ length: 10 }, (_, i) => i + 1);
const persons = (ns: readonly number[]) => ns.map((n) => person(n));
const records = (ns: readonly number[]) => ns.map((n) => employee(n, { personId: P(n) }));

describeEachStore("a snapshot's shrink guard", (directory, it) => {
  const guarded = (text: string) => load(directory(), "snapshot", text, { allowShrink: false });
  beforeEach(async () => {
    await load(directory(), "merge", dataText(persons(TEN), records(TEN)));
  });

  it("refuses deleting 2 of 10 records, naming the count and the flag, nothing changed", async () => {
    const before = await seen(directory());
    const attempt = guarded(dataText(persons(TEN), records(TEN.slice(2))));
    await expect(attempt).rejects.toBeInstanceOf(ShrinkRefusedError);
    await expect(attempt).rejects.toThrow(
      "snapshot: would delete 2 of the 10 stored employee records, more than 10%; " +
        "to allow it, load with --allow-shrink (an inbox object: metadata allow-shrink=true)",
    );
    expect(await seen(directory())).toEqual(before);
  });

  it("refuses deleting 2 of 10 persons whose records it keeps unlinked", async () => {
    const kept = records(TEN).map((record, i) => (i < 2 ? { ...record, personId: null } : record));
    await expect(guarded(dataText(persons(TEN.slice(2)), kept))).rejects.toThrow(
      /^snapshot: would delete 2 of the 10 stored persons, more than 10%/,
    );
  });

  it("applies deleting 1 of 10 (10% is allowed), and any share when allowed", async () => {
    const summary = await guarded(dataText(persons(TEN), records(TEN.slice(1))));
    expect(summary.deletedBySnapshot).toBe(1);
    const allowed = await load(directory(), "snapshot", dataText(persons([3]), records([3])), {
      allowShrink: true,
    });
    expect(allowed.deletedBySnapshot).toBe(8 + 9);
    expect(await employeeIds(directory(), "acme")).toEqual([E(3)]);
  });
});
