/**
 * A load on the DynamoDB store. It holds the lease (renewed while it runs), writes every change as
 * new versions at its own generation (invisible to searches, which read the committed one), and
 * journals each chunk first (load-chunk.ts). Commit is one conditional write of the manifest; the
 * versions it superseded are removed once no search can still be reading them.
 */
import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  type Change,
  type CommitOptions,
  type CommitReport,
  type Deadline,
  type DirectoryWriter,
  LeaseLostError,
  type LoadCheckpoint,
  type LoadSession,
  type StoredIdsPage,
} from "../../port.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import {
  type AbandonedList,
  abandonedOf,
  abandonLease,
  acquireLease,
  afterRecovery,
  cleanedUp,
  type DeadHolders,
  giveBackLease,
  holderIsDead,
  type Lease,
  type LeaseHolder,
  type LeaseWatch,
  type Manifest,
  publish,
  readManifest,
  releaseLease,
  renewLease,
  thisProcess,
} from "../manifest/index.js";
import {
  bytesOf,
  companyItemVisible,
  companyPartition,
  type Generation,
  GRACE_MS,
  ID_BUCKETS,
  type IdKind,
  type Item,
  idOfIdEntrySort,
  idsPartition,
  keyOf,
  keyOfText,
  keyText,
  type ScopeId,
  scopePartition,
  sleep,
} from "../model/index.js";
import { type DirectoryReads, directoryReads } from "../read/index.js";
import {
  checkedBlockSizes,
  type GramBlockSizes,
  type OrderBlockSizes,
  type RegisteredScope,
} from "../structures/index.js";
import { deriveCompanyGrams } from "./derive-grams.js";
import { deriveCompanyOrders } from "./derive-orders.js";
import { buildScopePostings } from "./derive-scope-grams.js";
import { companyPersons, deriveScopeOrder, keepScopes, scopesAtLoad } from "./derive-scopes.js";
import { type Journal, journal } from "./journal.js";
import { type ChunkProgress, ChunkWriter } from "./load-chunk.js";
import { rebuildEntries, storedCompanies, supersedeDerived } from "./rebuild.js";
import { rebuildIdIndex } from "./rebuild-ids.js";

export interface WriterOptions {
  /** A lease not renewed for this long is taken to belong to a dead load. */
  readonly leaseTtlMs?: number;
  readonly renewEveryMs?: number;
  /**
   * Wait after the flip before superseded versions are removed: a search that read the manifest
   * just before it must be able to finish (readers re-check answers older than maxReadAgeMs).
   */
  readonly graceMs?: number;
  /** Wait before the flip, for eventually consistent readers to hold the last writes (on AWS). */
  readonly settleMs?: number;
  readonly now?: () => number;
  /** The process recorded in the lease (default: this one), so a next load can see it died. */
  readonly holder?: LeaseHolder;
  /** Whether a lease not yet expired belongs to a dead load (default: `holderIsDead`). */
  readonly isDead?: (lease: Lease) => boolean;
  /**
   * The clock a taker watches a lease's heartbeat on before taking it over (default: this
   * process's monotonic clock and timers); tests move it.
   */
  readonly leaseWatch?: LeaseWatch;
  /**
   * Blocks an order index item holds before it is stored in parts (default INDEX_PART_BLOCKS,
   * about 2.5 million keys); tests set it small to store parts without millions of records.
   */
  readonly indexPartBlocks?: number;
  /**
   * Keys an order block holds (default BLOCK_ENTRIES, about 256); tests set it small to split,
   * merge and store orders in parts without thousands of records.
   */
  readonly orderBlocks?: OrderBlockSizes;
  /**
   * Postings a gram block counts (default GRAM_BLOCK_ENTRIES, about 1,024); tests set it small to
   * split and merge blocks without thousands of records.
   */
  readonly gramBlocks?: GramBlockSizes;
}

const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
/** Changes per chunk: every read and write of a chunk is batched. */
const CHUNK = 200;

/** The store a writer loads into, and its options with their defaults. */
interface Store {
  readonly client: DynamoDBDocumentClient;
  readonly table: string;
  readonly options: WriterOptions;
  readonly now: () => number;
  readonly ttl: number;
  readonly reads: DirectoryReads;
  readonly journal: Journal;
}

export function dynamoDirectoryWriter(
  client: DynamoDBDocumentClient,
  table: string,
  options: WriterOptions = {},
): DirectoryWriter {
  const store = storeOf(client, table, options);
  return {
    beginLoad: (label) => beginLoad(store, label),
    resumeLoad: (checkpoint) => resumeLoad(store, checkpoint),
  };
}

function storeOf(client: DynamoDBDocumentClient, table: string, options: WriterOptions): Store {
  // Refused when the writer is made, before a load can begin.
  if (options.orderBlocks) checkedBlockSizes("order", options.orderBlocks);
  if (options.gramBlocks) checkedBlockSizes("gram", options.gramBlocks);
  return {
    client,
    table,
    options,
    now: options.now ?? Date.now,
    ttl: options.leaseTtlMs ?? LEASE_TTL_MS,
    reads: directoryReads(client, table),
    journal: journal(client, table),
  };
}

/** Renews the lease until stopped; `alive` throws once a renewal failed (the lease may be lost). */
function renewWhileRunning(store: Store, owner: string) {
  let lost: unknown;
  const renew = setInterval(() => {
    renewLease(store.client, store.table, owner, store.now() + store.ttl).catch((error: unknown) => {
      lost ??= error;
    });
  }, store.options.renewEveryMs ?? RENEW_EVERY_MS);
  renew.unref();
  return {
    stop: () => clearInterval(renew),
    /**
     * Throws when the manifest names another owner, or once a renewal failed: a loader that woke
     * from a pause stops at its next step, before its next renewal is due. The lost lease is asked
     * first, for it is the cause: the renewal a woken loader sends may meet a connection dropped
     * while it slept.
     */
    alive: async () => {
      if ((await readManifest(store.client, store.table)).lease?.owner !== owner) throw new LeaseLostError();
      if (lost) throw lost;
    },
  };
}
type Renewal = ReturnType<typeof renewWhileRunning>;

/**
 * Finishes what dead or fenced-off loads left: undo every abandoned generation, and clean up after
 * a commit whose clean-up was cut short. Each undo keeps the last journal entry, whose writes a
 * paused loader may still send (an empty journal costs one Query), unless the generation's holder
 * was seen dead by an earlier flip and is dead still: what it had in flight has landed long since,
 * so it is undone whole and leaves the list (`afterRecovery`).
 */
async function recover(journal: Journal, manifest: Manifest, gen: number): Promise<DeadHolders> {
  const seen: number[] = [];
  const cleared: number[] = [];
  for (const abandoned of manifest.abandoned) {
    const holder = manifest.abandonedBy?.[abandoned];
    const dead = holderIsDead(holder);
    const whole = dead && holder?.seenDead === true;
    await journal.undo(abandoned, undefined, !whole);
    if (whole) cleared.push(abandoned);
    else if (dead) seen.push(abandoned);
  }
  if (manifest.cleanup !== undefined) await journal.cleanUp(manifest.cleanup);
  // Whatever is journaled under the generation about to be written was never committed (left by a
  // loader that reused generations): undo it too.
  await journal.undo(gen);
  return { seen, cleared };
}

/** What a session writes at: its generation, those it must never see, and the committed one. */
interface Fence {
  readonly gen: number;
  readonly committed: number;
  readonly abandoned: ReadonlySet<number>;
}

async function beginLoad(store: Store, label: string): Promise<LoadSession> {
  const { client, table, options } = store;
  const owner = randomUUID();
  const { manifest, lease } = await acquireLease(
    client,
    table,
    { owner, label, startedAt: store.now(), holder: options.holder ?? thisProcess() },
    store.ttl,
    options.isDead,
    options.leaseWatch,
  );
  const renewal = renewWhileRunning(store, owner);
  let deadHolders: DeadHolders;
  try {
    deadHolders = await recover(store.journal, manifest, lease.gen);
    if (manifest.cleanup !== undefined) await cleanedUp(client, table, owner);
  } catch (error) {
    renewal.stop();
    throw error;
  }
  const fence = { gen: lease.gen, committed: manifest.committed, abandoned: abandonedOf(manifest) };
  return new DynamoLoadSession(store, owner, fence, renewal, { ...FRESH, deadHolders });
}

/** What a repair did: the companies rebuilt, and what it could not heal (messages). */
export interface RepairReport {
  readonly companies: readonly string[];
  readonly unhealed: readonly string[];
}

/**
 * `npm run directory -- repair`: a load that rebuilds one company's entries and derived items, or
 * every company's (rebuild.ts), and those of the kept scopes holding them, and publishes them.
 */
export async function repairDerived(
  client: DynamoDBDocumentClient,
  table: string,
  options: WriterOptions & { companyId?: string } = {},
): Promise<RepairReport> {
  const session = (await beginLoad(storeOf(client, table, options), "repair")) as DynamoLoadSession;
  try {
    const repaired = await session.rebuild(options.companyId);
    const report = await session.commit();
    if (report.cleanupDeferred) throw new Error(`repaired; its clean-up failed: ${report.cleanupDeferred}`);
    return repaired;
  } catch (error) {
    await session.abort().catch(() => undefined);
    throw error;
  }
}

/** Where a read of stored ids stands: the id index partition (`idsPartition`) and the last key read there. */
interface IdsCursor {
  readonly bucket: number;
  readonly key?: string;
}

/** One page of an id index partition from `start`: the ids visible at `at`, and the key to go on from. */
async function idsPage(store: Store, kind: IdKind, bucket: number, at: Generation, start?: Item) {
  const page = await store.client.send(
    new QueryCommand({
      TableName: store.table,
      ConsistentRead: true,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": A.partition },
      ExpressionAttributeValues: { ":p": idsPartition(kind, bucket) },
      ExclusiveStartKey: start,
    }),
  );
  const ids: string[] = [];
  for (const item of page.Items ?? [])
    if (companyItemVisible(item, at)) ids.push(idOfIdEntrySort(bytesOf(item[A.sort])));
  return { ids, last: page.LastEvaluatedKey };
}

/** Where reading goes on after a page of partition `bucket` that ended at `last`; undefined: done. */
function nextOf(bucket: number, last: Item | undefined): IdsCursor | undefined {
  if (last) return { bucket, key: keyText(keyOf(last)) };
  return bucket + 1 < ID_BUCKETS ? { bucket: bucket + 1 } : undefined;
}

/**
 * A snapshot's stored ids of a kind, as the load sees them (its own writes and deletes included,
 * abandoned generations not), from the id index: a Query of each of its partitions, page by page.
 * It reads about 30 bytes an id, whatever else the table holds.
 */
async function* storedIds(
  store: Store,
  kind: IdKind,
  at: Generation,
  cursor: string | undefined,
): AsyncGenerator<StoredIdsPage> {
  const from = cursor === undefined ? { bucket: 0 } : (JSON.parse(cursor) as IdsCursor);
  for (let bucket = from.bucket; bucket < ID_BUCKETS; bucket += 1) {
    let start = bucket === from.bucket && from.key !== undefined ? keyItem(from.key) : undefined;
    do {
      const { ids, last } = await idsPage(store, kind, bucket, at, start);
      start = last;
      const next = nextOf(bucket, last);
      yield next ? { ids, next: JSON.stringify(next) } : { ids };
    } while (start);
  }
}

function keyItem(text: string): Item {
  const { p, s } = keyOfText(text as ReturnType<typeof keyText>);
  return { [A.partition]: p, [A.sort]: s };
}

/** What a suspended load resumes from (`LoadCheckpoint`, as JSON). */
interface DynamoCheckpoint extends ChunkProgress {
  readonly owner: string;
  readonly gen: number;
  /** What its recovery did to abandoned generations of dead holders, for its flip. */
  readonly deadHolders?: DeadHolders;
}

const isGens = (value: unknown) => Array.isArray(value) && value.every(Number.isSafeInteger);
const isDeadHolders = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  isGens((value as DeadHolders).seen) &&
  isGens((value as DeadHolders).cleared);

/** Touched entries as a checkpoint holds them: key texts by company. */
const isTouched = (value: unknown): value is Record<string, string[]> =>
  typeof value === "object" &&
  value !== null &&
  Object.values(value).every((keys) => Array.isArray(keys) && keys.every((key) => typeof key === "string"));

function dynamoCheckpoint(checkpoint: LoadCheckpoint): DynamoCheckpoint {
  const { owner, gen, seq, dangling, companies, scopes, touched, deadHolders } = checkpoint;
  if (
    (deadHolders !== undefined && !isDeadHolders(deadHolders)) ||
    typeof owner !== "string" ||
    typeof gen !== "number" ||
    typeof seq !== "number" ||
    !Array.isArray(dangling) ||
    !Array.isArray(companies) ||
    !Array.isArray(scopes) ||
    (touched !== undefined && !isTouched(touched))
  )
    throw new Error("not a checkpoint of a DynamoDB load");
  return {
    owner,
    gen,
    seq,
    dangling: dangling as DynamoCheckpoint["dangling"],
    companies: companies as string[],
    scopes: scopes as string[],
    ...(touched === undefined ? {} : { touched }),
    ...(deadHolders === undefined ? {} : { deadHolders: deadHolders as DeadHolders }),
  };
}

/**
 * Goes on with a suspended load: renews its lease (it throws if another load took it over), and
 * finds out whether the flip happened and whether a step was cut short after the checkpoint (its
 * journal goes further: the load can then only be undone).
 */
async function resumeLoad(store: Store, checkpoint: LoadCheckpoint): Promise<LoadSession> {
  const { owner, gen, seq, dangling, companies, scopes, touched, deadHolders } = dynamoCheckpoint(checkpoint);
  await renewLease(store.client, store.table, owner, store.now() + store.ttl);
  const renewal = renewWhileRunning(store, owner);
  try {
    const [manifest, lastSeq] = await Promise.all([
      readManifest(store.client, store.table),
      store.journal.lastSeq(gen),
    ]);
    // A load resumed after its flip sees its own generation committed: it fences as before it.
    const committed = Math.min(manifest.committed, gen - 1);
    const fence = { gen, committed, abandoned: abandonedOf(manifest) };
    return new DynamoLoadSession(store, owner, fence, renewal, {
      seq,
      dangling,
      companies,
      scopes,
      ...(touched === undefined ? {} : { touched }),
      published: manifest.committed >= gen,
      cutShort: lastSeq >= seq,
      ...(deadHolders === undefined ? {} : { deadHolders }),
    });
  } catch (error) {
    renewal.stop();
    throw error;
  }
}

/** How a session starts: fresh, or resumed from a checkpoint. */
interface SessionStart extends ChunkProgress {
  readonly published: boolean;
  /** A step of the load wrote past the checkpoint: going on would miss what it wrote. */
  readonly cutShort: boolean;
  /** What its recovery did to abandoned generations of dead holders, for its flip. */
  readonly deadHolders?: DeadHolders;
}

const FRESH: SessionStart = {
  seq: 0,
  dangling: [],
  companies: [],
  scopes: [],
  published: false,
  cutShort: false,
};

class DynamoLoadSession implements LoadSession {
  private readonly store: Store;
  private readonly owner: string;
  private readonly fence: Fence;
  private readonly renewal: Renewal;
  private readonly chunks: ChunkWriter;
  private isPublished: boolean;
  private readonly cutShort: boolean;
  private readonly start: SessionStart;

  private readonly gen: number;

  constructor(store: Store, owner: string, fence: Fence, renewal: Renewal, start: SessionStart = FRESH) {
    this.store = store;
    this.owner = owner;
    this.fence = fence;
    this.renewal = renewal;
    this.gen = fence.gen;
    // Chunks count the posted scopes' gram blocks: they take the store's options as derives do.
    this.chunks = new ChunkWriter(this.context(), start);
    this.isPublished = start.published;
    this.cutShort = start.cutShort;
    this.start = start;
  }

  get published(): boolean {
    return this.isPublished;
  }

  private async mayGoOn(): Promise<void> {
    await this.renewal.alive();
    if (this.cutShort)
      throw new Error("a step of this load was cut short after its last checkpoint; it can only be undone");
  }

  async apply(changes: readonly Change[]): Promise<number> {
    let changed = 0;
    for (let i = 0; i < changes.length; i += CHUNK) {
      await this.mayGoOn();
      changed += await this.chunks.apply(changes.slice(i, i + CHUNK));
    }
    return changed;
  }

  storedIds(kind: IdKind, cursor?: string): AsyncIterable<StoredIdsPage> {
    return storedIds(this.store, kind, this.fence, cursor);
  }

  async danglingReference() {
    const [first] = this.chunks.dangling;
    return first && { personId: first[0], employeeId: first[1] };
  }

  /**
   * The abandoned list the flip leaves, when the recovery found dead holders: read under the lease,
   * which only a lease's taker changes, so it is the list at the flip.
   */
  private async abandonedAfter(): Promise<AbandonedList | undefined> {
    const { deadHolders } = this.start;
    if (!deadHolders || deadHolders.seen.length + deadHolders.cleared.length === 0) return undefined;
    return afterRecovery(await readManifest(this.store.client, this.store.table), deadHolders);
  }

  private async publish(onPublished: CommitOptions["onPublished"]): Promise<void> {
    const { client, table, options } = this.store;
    await this.mayGoOn();
    if (options.settleMs) await sleep(options.settleMs);
    await publish(
      client,
      table,
      this.owner,
      this.gen,
      new Date(this.store.now()),
      await this.abandonedAfter(),
    );
    this.isPublished = true;
    await onPublished?.();
    await sleep(options.graceMs ?? GRACE_MS);
  }

  async keepScopes(scopes: readonly (readonly string[])[]): Promise<void> {
    await this.mayGoOn();
    const toDerive = await keepScopes(this.context(), this.chunks, scopes);
    for (const scopeId of toDerive) this.chunks.scopes.add(scopeId);
  }

  private rebuilding = false;

  private context() {
    const { indexPartBlocks, orderBlocks, gramBlocks } = this.store.options;
    return {
      ...this.store,
      ...this.fence,
      ...(indexPartBlocks === undefined ? {} : { indexPartBlocks }),
      ...(orderBlocks === undefined ? {} : { orderBlocks }),
      ...(gramBlocks === undefined ? {} : { gramBlocks }),
      ...(this.rebuilding ? { rebuild: true } : {}),
    };
  }

  /**
   * Writes a company's entries again from its records and bundles (all companies, when undefined),
   * supersedes its derived items and those of the kept scopes holding it, and marks them to derive
   * at commit: they are written again whole.
   */
  async rebuild(companyId?: string): Promise<RepairReport> {
    await this.mayGoOn();
    this.rebuilding = true;
    const context = this.context();
    const companies = companyId === undefined ? await storedCompanies(context) : [companyId];
    const unhealed: string[] = [];
    for (const company of companies) {
      await this.mayGoOn();
      unhealed.push(...(await rebuildEntries(context, this.chunks, company)));
      await supersedeDerived(context, this.chunks, companyPartition(company));
      this.chunks.derive.whole(company);
    }
    if (companyId === undefined) await rebuildIdIndex(context, this.chunks);
    for (const [scopeId, scope] of await scopesAtLoad(context))
      if (scope.companies.some((company) => companies.includes(company))) {
        await supersedeDerived(context, this.chunks, scopePartition(scope.home));
        this.chunks.scopes.add(scopeId);
      }
    return { companies, unhealed };
  }

  /**
   * A company's orders and name postings; the kept scopes holding it are marked to derive when its
   * persons changed (a scope is the union of its companies' persons). Marked before the company
   * leaves the set, in the same step: a checkpoint never holds a company done without them.
   */
  private async deriveCompany(company: string, registered: ReadonlyMap<ScopeId, RegisteredScope>) {
    const context = this.context();
    const touched = this.chunks.derive.touchedIn(company);
    const { personsChanged } = await deriveCompanyOrders(context, this.chunks, company, touched);
    await deriveCompanyGrams(context, this.chunks, company, touched);
    if (!personsChanged) return;
    for (const [scopeId, scope] of registered)
      if (scope.companies.includes(company)) this.chunks.scopes.add(scopeId);
  }

  /**
   * Derives the counted orders and name postings of the companies the load changed, then the
   * orders of the scopes holding any of them (which read the companies' orders), until done or
   * the deadline.
   */
  private async deriveChanged(deadline: Deadline | undefined): Promise<boolean> {
    const context = this.context();
    const { derive, scopes } = this.chunks;
    const { companies } = derive;
    const registered = await scopesAtLoad(context);
    const more = () => companies.size + scopes.size > 0;
    for (const company of [...companies].sort()) {
      await this.mayGoOn();
      await this.deriveCompany(company, registered);
      derive.done(company);
      if (more() && deadline?.()) return false;
    }
    const personsOf = companyPersons(context);
    for (const scopeId of [...scopes].sort()) {
      await this.mayGoOn();
      const scope = registered.get(scopeId);
      // A scope dropped by this load after it was marked has nothing left to derive.
      if (scope) {
        await deriveScopeOrder(context, this.chunks, scope, personsOf);
        await buildScopePostings(context, this.chunks, scope);
      }
      scopes.delete(scopeId);
      if (more() && deadline?.()) return false;
    }
    return true;
  }

  /** Whether the load wrote nothing at all: no chunk, derive, scope or repair journaled a write. */
  private wroteNothing(): boolean {
    const { seq, companies, scopes } = this.chunks.progress();
    return seq === 0 && companies.length === 0 && scopes.length === 0 && !this.rebuilding;
  }

  async commit(options: CommitOptions = {}): Promise<CommitReport> {
    const { client, table, journal } = this.store;
    if (!this.isPublished && this.wroteNothing()) {
      // Nothing to publish: the committed generation stays, and every answer cached under it.
      try {
        await options.onPublished?.();
        await giveBackLease(client, table, this.owner, this.gen);
        return {};
      } finally {
        this.renewal.stop();
      }
    }
    if (!this.isPublished) {
      if (!(await this.deriveChanged(options.deadline))) return { pending: true };
      await this.publish(options.onPublished);
    }
    try {
      if (!(await journal.cleanUp(this.gen, options.deadline))) return { pending: true };
      await cleanedUp(client, table, this.owner);
      await releaseLease(client, table, this.owner);
      return {};
    } catch (error) {
      // Applied all the same; the manifest names the clean-up, and the next load does it.
      return { cleanupDeferred: (error as Error).message };
    } finally {
      this.renewal.stop();
    }
  }

  async abort(deadline?: Deadline): Promise<boolean> {
    // Once published, the generation is the directory: a failed clean-up is finished by the next load.
    if (this.isPublished) {
      this.renewal.stop();
      return true;
    }
    const { client, table, journal } = this.store;
    try {
      if (this.wroteNothing()) {
        await giveBackLease(client, table, this.owner, this.gen);
        return true;
      }
      if (!(await journal.undo(this.gen, deadline))) return false;
      // A write of this load still in flight (another chunk's, say) may land after the undo.
      const holder = this.store.options.holder ?? thisProcess();
      await abandonLease(client, table, this.owner, { gen: this.gen, holder });
      return true;
    } finally {
      this.renewal.stop();
    }
  }

  suspend(): LoadCheckpoint {
    this.renewal.stop();
    const { deadHolders } = this.start;
    return {
      owner: this.owner,
      gen: this.gen,
      ...this.chunks.progress(),
      ...(deadHolders ? { deadHolders } : {}),
    };
  }
}
