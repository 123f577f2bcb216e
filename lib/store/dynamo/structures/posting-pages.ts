/**
 * Posting pages (docs/data-model.md, "Name postings"), pure: a company's postings of one gram are
 * packed in pages of at most one write unit, keyed by their low (an order key) and generation. A
 * page holds the gram's postings from its low up to the next page's low, so the postings in
 * [from, before) are those of the pages whose low lies there, and of the page just below `from`.
 * Written whole, a gram's postings are cut into full pages as they come in order; a load changing
 * some rewrites only the pages they fall in: the page at or below each posting (or a new one at a
 * posting below every page), split when past a write unit, superseded when emptied.
 */
import type { OrderKey } from "../../binary-keys.js";
import { utf8Bytes } from "../../bytes.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  encodePostingPage,
  type Item,
  type PagedPosting,
  type PartitionKey,
  pagedPostingBytes,
  postingSort,
} from "../model/index.js";
import { type Gram, gramId } from "./name-grams.js";

/** A page as stored: its low, generation and postings. */
export interface PostingPage {
  readonly low: OrderKey;
  readonly gen: number;
  readonly postings: readonly PagedPosting[];
}

/** A page as a load writes it, at its generation. */
export interface PageContents {
  readonly low: OrderKey;
  readonly postings: readonly PagedPosting[];
}

/** A write unit: an item of up to 1 KB costs one. */
const WRITE_UNIT = 1024;
/**
 * Room left in a page's write unit for what its item holds besides the postings: the attribute
 * names, the value's format, kind and count bytes, and a superseded stamp added later (a number).
 */
const ITEM_OVERHEAD = 48;

/**
 * How many bytes of postings a page of `gram` in partition `p` holds while its item stays within one
 * write unit, stamp included (a page holds at least one posting, however long its names).
 */
export const pageRoom = (p: PartitionKey, gram: Gram): number =>
  WRITE_UNIT - ITEM_OVERHEAD - p.length - (3 + utf8Bytes(gram.text).length + 29);

export const postingPageItem = (p: PartitionKey, gram: Gram, page: PageContents, gen: number): Item => ({
  [A.partition]: p,
  [A.sort]: postingSort(gram.field, gram.text, page.low, gen),
  [A.data]: encodePostingPage(page.postings),
});

/** Postings in order cut into pages of at most `room` bytes each, the first keeping `low`. */
export function cutPages(low: OrderKey, postings: readonly PagedPosting[], room: number): PageContents[] {
  const pages: PageContents[] = [];
  let current: PagedPosting[] = [];
  let bytes = 0;
  for (const posting of postings) {
    const size = pagedPostingBytes(posting);
    if (current.length > 0 && bytes + size > room) {
      pages.push({ low: pages.length === 0 ? low : (current[0] as PagedPosting).order, postings: current });
      current = [];
      bytes = 0;
    }
    current.push(posting);
    bytes += size;
  }
  if (current.length > 0)
    pages.push({ low: pages.length === 0 ? low : (current[0] as PagedPosting).order, postings: current });
  return pages;
}

/**
 * The pages of a company posted whole: each gram's postings, added in order of order key, cut into
 * full pages as they come (`add` returns those), the rest at the end (`rest`).
 */
export class PostingPageCutter {
  private readonly p: PartitionKey;
  private readonly open = new Map<string, { gram: Gram; postings: PagedPosting[]; bytes: number }>();

  constructor(p: PartitionKey) {
    this.p = p;
  }

  add(gram: Gram, posting: PagedPosting): { gram: Gram; page: PageContents } | undefined {
    const id = gramId(gram);
    const open = this.open.get(id) ?? { gram, postings: [], bytes: 0 };
    this.open.set(id, open);
    const size = pagedPostingBytes(posting);
    let full: { gram: Gram; page: PageContents } | undefined;
    if (open.postings.length > 0 && open.bytes + size > pageRoom(this.p, gram)) {
      full = { gram, page: { low: (open.postings[0] as PagedPosting).order, postings: open.postings } };
      open.postings = [];
      open.bytes = 0;
    }
    open.postings.push(posting);
    open.bytes += size;
    return full;
  }

  *rest(): Generator<{ gram: Gram; page: PageContents }> {
    for (const { gram, postings } of this.open.values())
      if (postings.length > 0) yield { gram, page: { low: (postings[0] as PagedPosting).order, postings } };
    this.open.clear();
  }
}

/** A change to one gram's postings: a posting added (1) or removed (-1). */
export interface PostingChange {
  readonly posting: PagedPosting;
  readonly change: 1 | -1;
}

/** What a load writes for one gram's changes: pages put, and the stored pages they replace. */
export interface PagePlan {
  readonly written: PageContents[];
  readonly superseded: PostingPage[];
}

/** The index of the page at or below `order` (pages sorted by low), or -1. */
function pageAt(pages: readonly { readonly low: OrderKey }[], order: OrderKey): number {
  let found = -1;
  for (const [i, page] of pages.entries()) {
    if (page.low > order) break;
    found = i;
  }
  return found;
}

/** A page being changed: the stored one it replaces (none: a new page), its postings so far. */
interface OpenPage {
  readonly low: OrderKey;
  readonly stored: PostingPage | undefined;
  readonly postings: PagedPosting[];
  changed: boolean;
}

const byOrder = (a: PostingChange, b: PostingChange) =>
  a.posting.order < b.posting.order ? -1 : a.posting.order > b.posting.order ? 1 : 0;

function remove(pages: OpenPage[], posting: PagedPosting): void {
  const page = pages[pageAt(pages, posting.order)];
  const index = page
    ? page.postings.findIndex((held) => held.order === posting.order && held.gen === posting.gen)
    : -1;
  if (!page || index < 0)
    throw new Error(`no posting page holds the posting of ${JSON.stringify(posting.order)} to remove`);
  page.postings.splice(index, 1);
  page.changed = true;
}

function add(pages: OpenPage[], posting: PagedPosting): void {
  if (pageAt(pages, posting.order) < 0)
    pages.unshift({ low: posting.order, stored: undefined, postings: [], changed: true });
  const page = pages[pageAt(pages, posting.order)] as OpenPage;
  const index = page.postings.findIndex((held) => held.order >= posting.order);
  if (index >= 0 && (page.postings[index] as PagedPosting).order === posting.order)
    throw new Error(`a posting of ${JSON.stringify(posting.order)} is posted already`);
  page.postings.splice(index < 0 ? page.postings.length : index, 0, posting);
  page.changed = true;
}

/**
 * One gram's changes applied to its pages: `stored`, the visible pages holding them (the page at or
 * below the lowest change and every page up to the highest), in order. Removals come first, so a
 * holder whose names entry changed is replaced. A removal the pages do not hold fails: the postings
 * are damaged, as verify would say.
 */
export function planPageChanges(
  stored: readonly PostingPage[],
  changes: readonly PostingChange[],
  room: number,
): PagePlan {
  const pages: OpenPage[] = stored.map((page) => ({
    low: page.low,
    stored: page,
    postings: [...page.postings],
    changed: false,
  }));
  for (const { posting } of changes.filter(({ change }) => change === -1)) remove(pages, posting);
  for (const { posting } of changes.filter(({ change }) => change === 1).sort(byOrder)) add(pages, posting);
  const plan: PagePlan = { written: [], superseded: [] };
  for (const page of pages.filter(({ changed }) => changed)) {
    if (page.stored) plan.superseded.push(page.stored);
    if (page.postings.length > 0) plan.written.push(...cutPages(page.low, page.postings, room));
  }
  return plan;
}
