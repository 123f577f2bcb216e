import fc from "fast-check";
import type { OrderKey } from "../../../../lib/store/binary-keys.js";
import {
  decodePostingPage,
  encodeNamePairs,
  encodePostingPage,
  type PagedPosting,
  pagedPostingBytes,
} from "../../../../lib/store/dynamo/model/codec.js";
import type { PartitionKey } from "../../../../lib/store/dynamo/model/layout.js";
import {
  cutPages,
  type PostingChange,
  type PostingPage,
  PostingPageCutter,
  pageRoom,
  planPageChanges,
} from "../../../../lib/store/dynamo/structures/posting-pages.js";

/** Order keys as 25-character latin1 strings, from a number: byte order is number order. */
const key = (n: number) => n.toString().padStart(25, "0") as OrderKey;
const posting = (n: number, gen = 1, last = "smith"): PagedPosting => ({
  order: key(n),
  gen,
  pairs: encodeNamePairs([{ firstName: "ann", lastName: last }]),
});
/** Room for three of `posting`'s postings. */
const ROOM = 3 * pagedPostingBytes(posting(0));
const stored = (pages: readonly { low: OrderKey; postings: readonly PagedPosting[] }[]): PostingPage[] =>
  pages.map((page) => ({ ...page, gen: 1 }));
const orders = (pages: readonly { postings: readonly PagedPosting[] }[]) =>
  pages.flatMap((page) => page.postings.map((held) => held.order));

describe("posting pages", () => {
  it("encode and decode a page; refuse one out of order, below its low or empty", () => {
    const postings = [posting(1, 3), posting(2, 7, "o'neil")];
    expect(decodePostingPage(encodePostingPage(postings), key(1))).toEqual(postings);
    expect(() => decodePostingPage(encodePostingPage(postings), key(2))).toThrow(/below its low/);
    expect(() => decodePostingPage(encodePostingPage([posting(2), posting(1)]), key(0))).toThrow(
      /out of order/,
    );
    expect(() => decodePostingPage(encodePostingPage([]), key(0))).toThrow(/no posting/);
    const past = Uint8Array.of(...encodePostingPage(postings), 0);
    expect(() => decodePostingPage(past, key(1))).toThrow(/past the end/);
  });

  it("keep a page's item within one write unit, stamp included", () => {
    const p = new TextEncoder().encode("a-company-with-a-long-id-of-forty-bytes!") as PartitionKey;
    const gram = { field: "lastName", text: "abc" } as const;
    const room = pageRoom(p, gram);
    const cut = cutPages(
      key(0),
      Array.from({ length: 100 }, (_, n) => posting(n)),
      room,
    );
    for (const page of cut) {
      const data = encodePostingPage(page.postings);
      // attribute names, p, s (family, field, gram, order key, generation), d, and a stamp `x`
      expect(3 + p.length + (3 + 3 + 29) + data.length + 1 + 21).toBeLessThanOrEqual(1024);
    }
    expect(cut.length).toBeLessThan(100 / 15);
  });

  it("cut a gram's postings, as they come, into full pages and the rest", () => {
    const cutter = new PostingPageCutter(new Uint8Array(8) as PartitionKey);
    const gram = { field: "firstName", text: "a" } as const;
    const full = Array.from({ length: 100 }, (_, n) => cutter.add(gram, posting(n))).filter((page) => page);
    const rest = [...cutter.rest()];
    expect(full.length).toBeGreaterThan(1);
    expect(rest).toHaveLength(1);
    const pages = [...full, ...rest].map((cut) => cut?.page);
    expect(pages.flatMap((page) => page?.postings.map((held) => held.order))).toEqual(
      Array.from({ length: 100 }, (_, n) => key(n)),
    );
    for (const page of pages) expect(page?.low).toBe(page?.postings[0]?.order);
  });

  it("rewrite only the page a change falls in, keeping its low when its first posting goes", () => {
    const pages = stored([
      { low: key(10), postings: [posting(10), posting(12)] },
      { low: key(20), postings: [posting(20), posting(25)] },
    ]);
    const plan = planPageChanges(
      pages,
      [
        { posting: posting(20), change: -1 },
        { posting: posting(22), change: 1 },
      ],
      ROOM,
    );
    expect(plan.superseded).toEqual([pages[1]]);
    expect(plan.written).toEqual([{ low: key(20), postings: [posting(22), posting(25)] }]);
  });

  it("replace a holder's posting removed and added again, split a page past its room, drop an emptied one", () => {
    const pages = stored([
      { low: key(10), postings: [posting(10), posting(12)] },
      { low: key(20), postings: [posting(20)] },
    ]);
    const plan = planPageChanges(
      pages,
      [
        { posting: posting(12, 2, "jones"), change: 1 },
        { posting: posting(12), change: -1 },
        { posting: posting(11), change: 1 },
        { posting: posting(13), change: 1 },
        { posting: posting(20), change: -1 },
      ],
      ROOM,
    );
    expect(plan.superseded).toEqual(pages);
    expect(plan.written).toEqual([
      { low: key(10), postings: [posting(10), posting(11), posting(12, 2, "jones")] },
      { low: key(13), postings: [posting(13)] },
    ]);
  });

  it("start a page below every page for a posting below them all", () => {
    const pages = stored([{ low: key(10), postings: [posting(10)] }]);
    const plan = planPageChanges(pages, [{ posting: posting(5), change: 1 }], ROOM);
    expect(plan).toEqual({ written: [{ low: key(5), postings: [posting(5)] }], superseded: [] });
  });

  it("fail a removal no page holds, and an addition posted already", () => {
    const pages = stored([{ low: key(10), postings: [posting(10)] }]);
    expect(() => planPageChanges(pages, [{ posting: posting(11), change: -1 }], ROOM)).toThrow(/to remove/);
    expect(() => planPageChanges(pages, [{ posting: posting(10), change: 1 }], ROOM)).toThrow(
      /posted already/,
    );
  });

  it("hold exactly the postings after any changes, each page within its span and room", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 40 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 20 }),
        (held, toggled) => {
          const sorted = [...held].sort((a, b) => a - b);
          const pages = stored(
            sorted.length
              ? cutPages(
                  key(sorted[0] as number),
                  sorted.map((n) => posting(n)),
                  ROOM,
                )
              : [],
          );
          const changes: PostingChange[] = toggled.map((n) => ({
            posting: posting(n),
            change: held.includes(n) ? -1 : 1,
          }));
          const plan = planPageChanges(pages, changes, ROOM);
          const after = [...pages.filter((page) => !plan.superseded.includes(page)), ...plan.written].sort(
            (a, b) => (a.low < b.low ? -1 : 1),
          );
          const expected = [
            ...new Set([
              ...held.filter((n) => !toggled.includes(n)),
              ...toggled.filter((n) => !held.includes(n)),
            ]),
          ]
            .sort((a, b) => a - b)
            .map(key);
          expect(orders(after)).toEqual(expected);
          for (const [i, page] of after.entries()) {
            const next = after[i + 1]?.low;
            expect(page.postings.length).toBeGreaterThan(0);
            expect(
              page.postings.every(
                (held) => held.order >= page.low && (next === undefined || held.order < next),
              ),
            ).toBe(true);
            expect(page.postings.reduce((sum, held) => sum + pagedPostingBytes(held), 0)).toBeLessThanOrEqual(
              ROOM,
            );
          }
        },
      ),
    );
  });
});
