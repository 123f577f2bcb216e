/**
 * One chunk of a load on the DynamoDB store: read what it touches (strongly consistent), plan its
 * writes (load-plan.ts, pure), journal them, then write them.
 */
import type { SourceEmployee, SourcePerson } from "../../../directory/source.js";
import type { Change } from "../../port.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import type { StoredBundle } from "../model/index.js";
import {
  batchGet,
  batchWrite,
  type Item,
  type ItemKey,
  idOfPartition,
  inParallel,
  isLocationPartition,
  type KeyText,
  keyOf,
  keyText,
  LOCATION_SORT,
  locationPartition,
  locationSeenAt,
  type Rewrite,
  type ScopeId,
  type StoredLocation,
} from "../model/index.js";
import { type ChunkContext, loadAt } from "./chunk-context.js";
import { GramBlockCache, gramBlockWrites } from "./derive-gram-blocks.js";
import { type JournalEntry, writeLocations } from "./journal.js";
import {
  type ChunkInput,
  type ChunkPlan,
  nextBundles,
  planChunk,
  reorderedPersons,
  touchedPersons,
} from "./load-plan.js";
import { postedScopes } from "./posted-scopes.js";
import { type JournaledRewrite, journaledRewrite, writeRewrites } from "./rewrites.js";
import { CompaniesToDerive, touchedEntries } from "./touched-entries.js";

const BUNDLES_IN_FLIGHT = 16;
/** The last change of each id in a chunk: a later line about the same id wins. */
function finalValues(changes: readonly Change[]) {
  const records = new Map<string, SourceEmployee | null>();
  const persons = new Map<string, SourcePerson | null>();
  for (const change of changes) {
    if (change.op === "upsert") {
      if ("person" in change) persons.set(change.person.id, change.person);
      else records.set(change.employee.id, change.employee);
    } else if ("person" in change) persons.set(change.person, null);
    else records.set(change.employee, null);
  }
  return { records, persons };
}

/**
 * The locations of these records as the load sees them; `read` notes the generation each item held
 * as read (absent: no item), which its rewrite is conditioned on.
 */
async function locationsOf(context: ChunkContext, ids: Iterable<string>, read: LocationsRead) {
  const keys = [...ids].map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));
  const found = await batchGet(context.client, context.table, keys, true);
  return new Map(
    keys.map((key) => {
      const item = found.get(keyText(key));
      const gen = item?.[A.gen];
      read.set(keyText(key), typeof gen === "number" ? gen : undefined);
      return [idOfPartition(key.p), item ? locationSeenAt(item, context) : undefined] as const;
    }),
  );
}

/** Location keys a chunk read, with the generation each held then (undefined: none was stored). */
type LocationsRead = Map<KeyText, number | undefined>;

async function bundlesOf(context: ChunkContext, persons: ReadonlySet<string>) {
  const at = loadAt(context);
  const bundles = new Map<string, StoredBundle | undefined>();
  await inParallel([...persons], BUNDLES_IN_FLIGHT, async (id) => {
    bundles.set(id, await context.reads.bundle(id, at));
  });
  return bundles;
}

/**
 * What is stored for the ids a chunk touches: locations of its records, bundles of its persons; and
 * the posted scopes, whose postings follow the bundles.
 */
async function readChunk(
  context: ChunkContext,
  changes: readonly Change[],
  read: LocationsRead,
): Promise<ChunkInput> {
  const { records, persons } = finalValues(changes);
  const [found, scopes] = await Promise.all([
    locationsOf(context, records.keys(), read),
    postedScopes(context),
  ]);
  const locations = new Map<string, StoredLocation | undefined>(found);
  const touched = touchedPersons(records, persons, locations);
  const bundles = await bundlesOf(context, touched);
  // Records of a person whose order changes carry it: their locations are needed too.
  const input = { records, persons, locations, bundles };
  const next = nextBundles(input, touched);
  const others = reorderedPersons(input, next).flatMap((id) =>
    (next.get(id)?.employees ?? []).map((record) => record.id).filter((rid) => !locations.has(rid)),
  );
  for (const [id, stored] of await locationsOf(context, others, read)) locations.set(id, stored);
  return { gen: context.gen, ...input, scopes };
}

const journalEntry = (plan: PlannedWrites, rewrites: JournaledRewrite[]): JournalEntry => ({
  // Location items are restored from their own previous value, not deleted.
  puts: plan.puts
    .map(keyOf)
    .filter((key) => !isLocationPartition(key.p))
    .map(keyText),
  stamps: plan.stamps.map(keyText),
  ...(plan.replaced && plan.replaced.length > 0 ? { replaced: plan.replaced.map(keyText) } : {}),
  locations: plan.locations,
  ...(rewrites.length > 0 ? { rewrites } : {}),
});

/**
 * A chunk's writes with the posted scopes' gram blocks counted by its postings' changes: the blocks
 * as the load sees them (earlier chunks' included), like the censuses the chunk read.
 */
async function withScopeBlocks(
  context: ChunkContext,
  plan: ChunkPlan,
  cache: GramBlockCache,
): Promise<PlannedWrites> {
  const puts = [...plan.puts];
  const deletes = [...plan.deletes];
  const stamps = [...plan.stamps];
  const replaced = [...plan.replaced];
  for (const scope of plan.scopes) {
    // Before the chunk's postings are written: blocks to split are read without them.
    const writes = await gramBlockWrites(context, scope.p, scope.deltas, scope.census.census, {
      stored: loadAt(context),
      written: false,
      cache,
    });
    puts.push(...writes.puts.values());
    deletes.push(...writes.deletes.values());
    stamps.push(...writes.stamps.values());
    replaced.push(...writes.replaced.values());
  }
  return { puts, deletes, stamps, replaced, locations: plan.locations };
}

/** Where a load's chunks stand: what a resumed load goes on from. */
export interface ChunkProgress {
  /** The journal sequence number of the next chunk. */
  readonly seq: number;
  /** Person ids missing but linked to, each with a record linking to them. */
  readonly dangling: ReadonlyArray<readonly [string, string]>;
  /**
   * Companies whose items the load changed and whose counted orders and name postings are not yet
   * derived again.
   */
  readonly companies: readonly string[];
  /** Scopes whose orders are not yet derived again (scope-registry.ts): ids, in hex. */
  readonly scopes: readonly string[];
  /** Per company of `companies` derived by delta: the entries the load touched (absent: whole). */
  readonly touched?: Readonly<Record<string, readonly string[]>>;
}

/** The writes of a chunk, or of a derived structure (with a repair's rewrites), as journaled and sent. */
type PlannedWrites = Pick<ChunkPlan, "puts" | "deletes" | "stamps" | "locations"> & {
  readonly replaced?: readonly ItemKey[];
  readonly rewrites?: readonly Rewrite[];
};

/**
 * Per company, the entries the writes touch: its orders and postings are derived from those. A
 * record item alone (a changed phone, address, …) derives nothing.
 */
const touchedBy = (plan: PlannedWrites) =>
  touchedEntries([...plan.puts.map(keyOf), ...plan.deletes, ...plan.stamps]);

/** Applies chunks in order; keeps which persons are missing but linked to, as of the last chunk. */
export class ChunkWriter {
  private readonly context: ChunkContext;
  private seq: number;
  /** Person id to a record linking to them while they are missing. */
  readonly dangling: Map<string, string>;

  /** Companies whose counted orders and name postings must be derived again before the flip. */
  readonly derive: CompaniesToDerive;
  /** Scopes whose orders must be derived again before the flip (after the companies'). */
  readonly scopes: Set<ScopeId>;
  /** The posted scopes' gram blocks as this writer's chunks left them. */
  private readonly blocks = new GramBlockCache();

  constructor(
    context: ChunkContext,
    from: ChunkProgress = { seq: 0, dangling: [], companies: [], scopes: [] },
  ) {
    this.context = context;
    this.seq = from.seq;
    this.dangling = new Map(from.dangling);
    this.derive = new CompaniesToDerive(from.companies, from.touched);
    this.scopes = new Set(from.scopes as readonly ScopeId[]);
  }

  /** Blocks were written outside chunks (a scope changed, built or repaired): chunks read them again. */
  forgetBlocks(): void {
    this.blocks.clear();
  }

  progress(): ChunkProgress {
    return {
      seq: this.seq,
      dangling: [...this.dangling],
      companies: [...this.derive.companies],
      scopes: [...this.scopes],
      touched: this.derive.touchedRecord(),
    };
  }

  /** Applies a chunk; how many of its changes changed what is stored. */
  async apply(changes: readonly Change[]): Promise<number> {
    const read: LocationsRead = new Map();
    const planned = planChunk(await readChunk(this.context, changes, read));
    const plan = { ...planned, ...(await withScopeBlocks(this.context, planned, this.blocks)) };
    for (const [personId, employeeId] of plan.dangling) {
      if (employeeId === null) this.dangling.delete(personId);
      else this.dangling.set(personId, employeeId);
    }
    this.derive.note(touchedBy(plan));
    try {
      await this.write(plan, read);
    } catch (error) {
      this.blocks.dropped();
      throw error;
    }
    this.blocks.sent();
    return plan.changed;
  }

  /**
   * Journals writes, then sends them: the one way a load writes, so undo and clean-up see all. In
   * pieces (`journalPieces`), each journaled before it is sent: a journal entry is one item (400 KB
   * at most), and a chunk that rewrites persons posted in several scopes, or a first derive of a
   * large order, names tens of thousands of keys. The chunk's locations go with its first piece
   * (undo restores only those the load rewrote).
   */
  async write(plan: PlannedWrites, read: LocationsRead = new Map()): Promise<void> {
    const { client, table, journal, gen, committed } = this.context;
    for (const [i, piece] of journalPieces(plan).entries()) {
      const part: PlannedWrites = {
        puts: piece.flatMap((w) => ("put" in w ? [w.put] : [])),
        deletes: piece.flatMap((w) => ("del" in w ? [w.del] : [])),
        stamps: piece.flatMap((w) => ("stamp" in w ? [w.stamp] : [])),
        replaced: piece.flatMap((w) => ("replaced" in w ? [w.replaced] : [])),
        locations: i === 0 ? plan.locations : [],
      };
      const rewrites = piece.flatMap((w) => ("rewrite" in w ? [w] : []));
      await journal.write(
        gen,
        this.seq++,
        journalEntry(
          part,
          rewrites.map((w) => w.journaled),
        ),
      );
      const location = (key: ItemKey) => isLocationPartition(key.p);
      await batchWrite(client, table, [
        ...part.puts.filter((put) => !location(keyOf(put))).map((put) => ({ put })),
        ...part.deletes.filter((key) => !location(key)).map((key) => ({ delete: key })),
      ]);
      const refused = await writeLocations(client, table, gen, [
        ...part.puts
          .filter((put) => location(keyOf(put)))
          .map((put) => ({ put, read: read.get(keyText(keyOf(put))) })),
        ...part.deletes.filter(location).map((key) => ({ delete: key })),
      ]);
      if (refused > 0)
        throw new Error(
          `this load lost its lease: a later load rewrote ${refused} of its records' locations`,
        );
      const changed = await writeRewrites(
        client,
        table,
        rewrites.map((w) => w.rewrite),
      );
      if (changed > 0)
        throw new Error(
          `this load lost its lease: ${changed} of the items it rewrites in place changed since it read them`,
        );
      await journal.stamp(part.stamps, gen, false, committed);
    }
  }
}

/** Keys one journal entry names at most: about 110 characters each, so well under an item's 400 KB. */
const KEYS_PER_ENTRY = 2_000;
/** Characters of replaced items (as JSON) one journal entry holds at most, beside its keys. */
const REPLACED_PER_ENTRY = 150_000;

/** One write of a piece: a put, a delete, a stamp, or a rewrite with what its journal entry names. */
type PieceWrite =
  | { readonly put: Item }
  | { readonly del: ItemKey }
  | { readonly stamp: ItemKey }
  | { readonly replaced: ItemKey }
  | { readonly rewrite: Rewrite; readonly journaled: JournaledRewrite; readonly chars: number };

/**
 * Writes in the pieces one journal entry each names: at most `KEYS_PER_ENTRY` keys, and the items
 * rewrites replace at most `REPLACED_PER_ENTRY` characters (a piece holds one write at least).
 */
export function journalPieces(
  plan: PlannedWrites,
  limits = { keys: KEYS_PER_ENTRY, replaced: REPLACED_PER_ENTRY },
): PieceWrite[][] {
  const all: PieceWrite[] = [
    ...plan.puts.map((put) => ({ put })),
    ...plan.deletes.map((del) => ({ del })),
    ...plan.stamps.map((stamp) => ({ stamp })),
    ...(plan.replaced ?? []).map((replaced) => ({ replaced })),
    ...(plan.rewrites ?? []).map((rewrite) => {
      const journaled = journaledRewrite(rewrite);
      return { rewrite, journaled, chars: journaled.before ? JSON.stringify(journaled.before).length : 0 };
    }),
  ];
  const pieces: PieceWrite[][] = [];
  let piece: PieceWrite[] = [];
  let chars = 0;
  for (const write of all) {
    const adds = "chars" in write ? write.chars : 0;
    if (piece.length > 0 && (piece.length >= limits.keys || chars + adds > limits.replaced)) {
      pieces.push(piece);
      [piece, chars] = [[], 0];
    }
    piece.push(write);
    chars += adds;
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}
