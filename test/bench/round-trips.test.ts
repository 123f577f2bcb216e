import { percentile } from "../../lib/bench/percentile.js";
import { roundTripBound } from "../../lib/bench/report.js";
import { criticalPathRoundTrips } from "../../lib/bench/round-trips.js";
import { capacityUnits, itemsWritten } from "../../lib/observability/dynamo-capacity.js";

const call = (startMs: number, endMs: number) => ({ startMs, endMs });

describe("criticalPathRoundTrips", () => {
  it("is 0 with no call and 1 with one", () => {
    expect(criticalPathRoundTrips([])).toBe(0);
    expect(criticalPathRoundTrips([call(0, 5)])).toBe(1);
  });

  it("counts calls in flight together as one round trip", () => {
    expect(criticalPathRoundTrips([call(0, 10), call(1, 9), call(2, 12)])).toBe(1);
  });

  it("counts each call that starts after another ended", () => {
    expect(criticalPathRoundTrips([call(0, 10), call(10, 20), call(21, 30)])).toBe(3);
  });

  it("follows the longest chain: an index phase in parallel, then a page phase in parallel", () => {
    const index = [call(0, 40), call(0, 55), call(1, 50)];
    const page = [call(56, 70), call(56, 80), call(57, 75)];
    expect(criticalPathRoundTrips([...page, ...index])).toBe(2);
  });

  it("takes the longest chain, not the number of phases seen by one call", () => {
    // a → b → c is three; d runs alongside all of them.
    expect(criticalPathRoundTrips([call(0, 100), call(0, 10), call(10, 20), call(25, 30)])).toBe(3);
  });

  it("chains a zero-length call that ends when the next starts", () => {
    expect(criticalPathRoundTrips([call(5, 9), call(5, 5)])).toBe(2);
  });
});

describe("capacityUnits", () => {
  it("sums CapacityUnits of one object (Query) or an array (BatchGetItem)", () => {
    expect(capacityUnits({ CapacityUnits: 2.5, TableName: "t", Table: { CapacityUnits: 2.5 } })).toBe(2.5);
    expect(capacityUnits([{ CapacityUnits: 1 }, { CapacityUnits: 0.5 }])).toBe(1.5);
    expect(capacityUnits(undefined)).toBe(0);
    expect(capacityUnits([{ TableName: "t" }])).toBe(0);
  });
});

describe("roundTripBound", () => {
  it("is ⌈bytes billed / 1 MB⌉ + 2, with 8 KB billed per RCU", () => {
    expect(roundTripBound(0.5)).toBe(3);
    expect(roundTripBound(128)).toBe(3); // exactly 1 MB
    expect(roundTripBound(128.5)).toBe(4);
  });
});

describe("percentile", () => {
  it("is the nearest-rank percentile", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([3, 1, 2], 99)).toBe(3);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("itemsWritten", () => {
  it("counts every request of a batch, over every table", () => {
    const input = {
      RequestItems: { a: [{ PutRequest: {} }, { DeleteRequest: {} }], b: [{ PutRequest: {} }] },
    };
    expect(itemsWritten("BatchWriteItemCommand", input)).toBe(3);
  });

  it("counts one item for a put, an update or a delete, and none for a read", () => {
    for (const command of ["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"])
      expect(itemsWritten(command, { TableName: "t" })).toBe(1);
    expect(itemsWritten("QueryCommand", { TableName: "t" })).toBe(0);
    expect(itemsWritten("BatchGetItemCommand", { RequestItems: { a: { Keys: [{}, {}] } } })).toBe(0);
  });
});
