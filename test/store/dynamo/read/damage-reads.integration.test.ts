/**
 * Damage a search can tell fails the search, never a wrong total: an order block out of step with
 * its index's count, a names census that disagrees with the postings read. The error names the
 * item (the 500's log line carries it).
 */
import { bytesOf, type Item, keyOf } from "../../../../lib/store/dynamo/model/batch.js";
import { decodeOrderIndex, encodeOrderIndex } from "../../../../lib/store/dynamo/model/codec.js";
import {
  companyPartition,
  isPostingSort,
  ORDER,
  postingOfSort,
} from "../../../../lib/store/dynamo/model/layout.js";
import { dynamoDirectoryReader } from "../../../../lib/store/dynamo/read/reader.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import type { DirectoryReader, EmployeesQuery } from "../../../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../../../lib/store/tables.js";
import { describeEachEngine } from "../../../support/engines.js";
import { tableItems } from "../../../support/table-items.js";
import { loadTwice } from "../verify-fixture.js";

const acme = (filter: Partial<EmployeesQuery["filter"]> = {}): EmployeesQuery => ({
  filter: { companies: new Set(["acme"]), ...filter },
  created: {},
  offset: 0,
  limit: 50,
});

describeEachEngine("searches over damaged items", (getEngine) => {
  const documents = () => documentClientFor(getEngine().client);
  const table = () => getEngine().tables.directory;
  const items = () => tableItems(documents(), table());
  let reader: DirectoryReader;

  beforeEach(async () => {
    await items().wipe();
    await loadTwice(documents(), table());
    reader = dynamoDirectoryReader(documents(), table(), { manifestTtlMs: 0, answerCacheBytes: 0 });
  });

  /** Acme's items whose sort key starts with `prefix`. */
  const acmeItems = async (prefix: readonly number[]): Promise<Item[]> => {
    const p = Buffer.from(companyPartition("acme"));
    return (await items().all()).filter((item) => {
      const key = keyOf(item);
      return Buffer.from(key.p).equals(p) && prefix.every((byte, i) => key.s[i] === byte);
    });
  };

  it("fails an employees search whose order block holds more keys than its index counts", async () => {
    expect((await reader.employees(acme())).total).toBeGreaterThan(1);
    const [index] = await acmeItems([0x0a, ORDER.employees]);
    if (!index) throw new Error("acme has no employees order index");
    const blocks = decodeOrderIndex(bytesOf(index[A.data]));
    const [first, ...rest] = blocks;
    if (!first) throw new Error("an empty index");
    await items().put({
      ...index,
      [A.data]: encodeOrderIndex([{ ...first, count: first.count - 1 }, ...rest]),
    });
    await expect(reader.employees(acme())).rejects.toThrow(
      /^order block [0-9a-f]+\/[0-9a-f]+ holds \d+ keys where its index counts \d+$/,
    );
  });

  it("fails a name search whose census counts a posting that is gone", async () => {
    const postings = (await acmeItems([])).filter((item) => isPostingSort(bytesOf(item[A.sort])));
    const [posting] = postings;
    if (!posting) throw new Error("acme has no name postings");
    const { field, text } = postingOfSort(bytesOf(posting[A.sort]));
    const search = () => reader.employees(acme({ [field]: text }));
    const before = await search();
    expect(before.total).toBeGreaterThan(0);
    await items().remove(keyOf(posting));
    await expect(search()).rejects.toThrow(/^names census of [0-9a-f]+\/[0-9a-f]+ counts \d+ holders of /);
  });
});
