/**
 * A load on the DynamoDB store. It holds the lease (renewed while it runs), writes every change as
 * new versions at its own generation (invisible to searches, which read the committed one), and
 * journals each chunk first (load-chunk.ts). Commit is one conditional write of the manifest; the
 * versions it superseded are removed once no search can still be reading them.
 */
import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Change, CommitReport, DirectoryWriter, LoadSession } from "../port.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { bytesOf, sleep } from "./batch.js";
import { type Journal, journal } from "./journal.js";
import { idOfPartition } from "./layout.js";
import { type LeaseHolder, thisProcess } from "./lease-holder.js";
import { ChunkWriter } from "./load-chunk.js";
import { acquireLease, cleanedUp, type Lease, publish, releaseLease, renewLease } from "./manifest.js";
import { MANIFEST_TTL_MS, MAX_READ_AGE_MS } from "./reader.js";
import { type DirectoryReads, directoryReads } from "./reads.js";

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
}

const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
const GRACE_MS = MANIFEST_TTL_MS + MAX_READ_AGE_MS + 500;
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
  readonly log: Journal;
}

export function dynamoDirectoryWriter(
  client: DynamoDBDocumentClient,
  table: string,
  options: WriterOptions = {},
): DirectoryWriter {
  const store: Store = {
    client,
    table,
    options,
    now: options.now ?? Date.now,
    ttl: options.leaseTtlMs ?? LEASE_TTL_MS,
    reads: directoryReads(client, table),
    log: journal(client, table),
  };
  return { beginLoad: (label) => beginLoad(store, label) };
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
    alive: () => {
      if (lost) throw lost;
    },
  };
}
type Renewal = ReturnType<typeof renewWhileRunning>;

/** Finishes what a dead load left: undo its uncommitted writes, or clean up after its commit. */
async function recover(
  log: Journal,
  abandoned: Lease | undefined,
  committed: number,
  cleanup: number | undefined,
): Promise<void> {
  if (abandoned && abandoned.gen > committed) await log.undo(abandoned.gen);
  if (cleanup !== undefined) await log.cleanUp(cleanup);
  // Whatever is journaled under the generation about to be written was never committed: undo it
  // too, even when no lease names it (the journal of an undo that was itself cut short).
  if (abandoned?.gen !== committed + 1) await log.undo(committed + 1);
}

async function beginLoad(store: Store, label: string): Promise<LoadSession> {
  const { client, table, options } = store;
  const owner = randomUUID();
  const { manifest, lease, abandoned } = await acquireLease(
    client,
    table,
    { owner, label, startedAt: store.now(), holder: options.holder ?? thisProcess() },
    store.ttl,
    options.isDead,
  );
  const renewal = renewWhileRunning(store, owner);
  try {
    await recover(store.log, abandoned, manifest.committed, manifest.cleanup);
    if (manifest.cleanup !== undefined) await cleanedUp(client, table, owner);
  } catch (error) {
    renewal.stop();
    throw error;
  }
  return new DynamoLoadSession(store, owner, lease.gen, renewal);
}

/** The scan of a snapshot's stored ids: persons whose bundle holds them, records with a location. */
function storedIdsScan(table: string, kind: "person" | "employee", gen: number): ScanCommandInput {
  const scan = { TableName: table, ConsistentRead: true, ProjectionExpression: "#p" };
  const prefix = Uint8Array.of(kind === "person" ? 0x00 : 0x01);
  if (kind === "employee")
    return {
      ...scan,
      FilterExpression: "begins_with(#p, :prefix) AND attribute_exists(#d)",
      ExpressionAttributeNames: { "#p": A.partition, "#d": A.data },
      ExpressionAttributeValues: { ":prefix": prefix },
    };
  return {
    ...scan,
    FilterExpression: "begins_with(#p, :prefix) AND #k = :one AND (attribute_not_exists(#x) OR #x > :gen)",
    ExpressionAttributeNames: { "#p": A.partition, "#k": A.hasPerson, "#x": A.supersededAt },
    ExpressionAttributeValues: { ":prefix": prefix, ":one": 1, ":gen": gen },
  };
}

async function* storedIds(store: Store, kind: "person" | "employee", gen: number): AsyncGenerator<string> {
  const input = storedIdsScan(store.table, kind, gen);
  let start: Record<string, unknown> | undefined;
  let last: string | undefined;
  do {
    const page = await store.client.send(new ScanCommand({ ...input, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const id = idOfPartition(bytesOf(item[A.partition]));
      // A person's chunks and versions come one after another.
      if (id !== last) yield id;
      last = id;
    }
    start = page.LastEvaluatedKey;
  } while (start);
}

class DynamoLoadSession implements LoadSession {
  private readonly chunks: ChunkWriter;
  private published = false;

  constructor(
    private readonly store: Store,
    private readonly owner: string,
    private readonly gen: number,
    private readonly renewal: Renewal,
  ) {
    this.chunks = new ChunkWriter({ ...store, gen });
  }

  async apply(changes: readonly Change[]): Promise<void> {
    for (let i = 0; i < changes.length; i += CHUNK) {
      this.renewal.alive();
      await this.chunks.apply(changes.slice(i, i + CHUNK));
    }
  }

  storedIds(kind: "person" | "employee"): AsyncIterable<string> {
    return storedIds(this.store, kind, this.gen);
  }

  async danglingReference() {
    const [first] = this.chunks.dangling;
    return first && { personId: first[0], employeeId: first[1] };
  }

  async commit(): Promise<CommitReport> {
    const { client, table, options, log } = this.store;
    this.renewal.alive();
    if (options.settleMs) await sleep(options.settleMs);
    await publish(client, table, this.owner, this.gen, new Date(this.store.now()));
    this.published = true;
    try {
      await sleep(options.graceMs ?? GRACE_MS);
      await log.cleanUp(this.gen);
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

  async abort(): Promise<void> {
    // Once published, the generation is the directory: a failed clean-up is finished by the next load.
    if (this.published) return this.renewal.stop();
    try {
      await this.store.log.undo(this.gen);
      await releaseLease(this.store.client, this.store.table, this.owner);
    } finally {
      this.renewal.stop();
    }
  }
}
