/**
 * The manifest: one small item holding the committed generation (what every search reads) and the
 * lease of the load in progress. Loads take the lease with a conditional write, renew it while
 * they run, and publish their generation with one conditional write: the flip readers see.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { LoadInProgressError } from "../port.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { MANIFEST_KEY } from "./layout.js";
import { holderIsDead, type LeaseHolder } from "./lease-holder.js";

/** The load holding the lease. Times are epoch milliseconds. */
export interface Lease {
  readonly owner: string;
  readonly label: string;
  readonly startedAt: number;
  readonly expiresAt: number;
  /** The generation the load writes. */
  readonly gen: number;
  /** The process running the load (absent in leases of older loaders). */
  readonly holder?: LeaseHolder;
}

export interface Manifest {
  /** The generation searches read; 0 before the first load. */
  readonly committed: number;
  readonly committedAt?: string;
  readonly lease?: Lease;
  /** A committed generation whose superseded versions are still to be removed. */
  readonly cleanup?: number;
}

const KEY = { [A.partition]: MANIFEST_KEY.p, [A.sort]: MANIFEST_KEY.s };

export async function readManifest(client: DynamoDBDocumentClient, table: string): Promise<Manifest> {
  const { Item } = await client.send(new GetCommand({ TableName: table, Key: KEY, ConsistentRead: true }));
  return {
    committed: typeof Item?.committed === "number" ? Item.committed : 0,
    ...(typeof Item?.committedAt === "string" ? { committedAt: Item.committedAt } : {}),
    ...(Item?.lease ? { lease: Item.lease as Lease } : {}),
    ...(typeof Item?.cleanup === "number" ? { cleanup: Item.cleanup } : {}),
  };
}

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

/**
 * Takes the lease for a new load, or refuses naming the running one. A lease past its expiry, or
 * held by a process known to be dead (`holderIsDead`: on this host, its pid gone), belonged to a
 * load that died: it is taken over, on the condition that its owner still holds it, and returned so
 * the new load can undo its writes.
 */
export async function acquireLease(
  client: DynamoDBDocumentClient,
  table: string,
  wanted: Omit<Lease, "gen" | "expiresAt">,
  ttlMs: number,
  isDead: (lease: Lease) => boolean = (lease) => holderIsDead(lease.holder),
): Promise<{ manifest: Manifest; lease: Lease; abandoned?: Lease }> {
  // A load that finished between our read and our write changed the manifest: read it again.
  for (let attempt = 1; ; attempt += 1) {
    const manifest = await readManifest(client, table);
    const held = manifest.lease;
    if (held && held.expiresAt > wanted.startedAt && !isDead(held))
      throw new LoadInProgressError(held.label, held.startedAt, held.expiresAt);
    const lease: Lease = { ...wanted, expiresAt: wanted.startedAt + ttlMs, gen: manifest.committed + 1 };
    if (await takeLease(client, table, manifest, lease, held))
      return { manifest, lease, ...(held ? { abandoned: held } : {}) };
    // Another load took it between our read and our write.
    const winner = (await readManifest(client, table)).lease;
    if (winner && winner.owner !== held?.owner)
      throw new LoadInProgressError(winner.label, winner.startedAt, winner.expiresAt);
    if (attempt >= 3)
      throw new Error("the manifest kept changing while taking the lease; run the load again");
  }
}

/** An update of the manifest item under a condition: false when the condition does not hold. */
async function updateManifestIf(
  client: DynamoDBDocumentClient,
  table: string,
  update: Omit<UpdateCommandInput, "TableName" | "Key">,
): Promise<boolean> {
  try {
    await client.send(new UpdateCommand({ TableName: table, Key: KEY, ...update }));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/** Writes the lease on the condition that the manifest is as read (`held` the lease taken over); false when it is not. */
const takeLease = (
  client: DynamoDBDocumentClient,
  table: string,
  manifest: Manifest,
  lease: Lease,
  held: Lease | undefined,
): Promise<boolean> =>
  updateManifestIf(client, table, {
    UpdateExpression: "SET lease = :lease",
    ConditionExpression: held
      ? "lease.#owner = :held AND (attribute_not_exists(committed) OR committed = :committed)"
      : "attribute_not_exists(lease) AND (attribute_not_exists(committed) OR committed = :committed)",
    ExpressionAttributeNames: held ? { "#owner": "owner" } : undefined,
    ExpressionAttributeValues: {
      ":lease": lease,
      ":committed": manifest.committed,
      ...(held ? { ":held": held.owner } : {}),
    },
  });

/** Conditional on still holding the lease: a load that lost it must stop writing. */
async function leaseUpdate(
  client: DynamoDBDocumentClient,
  table: string,
  owner: string,
  update: string,
  values: Record<string, unknown> = {},
): Promise<void> {
  const held = await updateManifestIf(client, table, {
    UpdateExpression: update,
    ConditionExpression: "lease.#owner = :owner",
    ExpressionAttributeNames: {
      "#owner": "owner",
      ...(update.includes("#expires") ? { "#expires": "expiresAt" } : {}),
    },
    ExpressionAttributeValues: { ":owner": owner, ...values },
  });
  if (!held) throw new Error("this load lost its lease (it expired and another load took over)");
}

export const renewLease = (client: DynamoDBDocumentClient, table: string, owner: string, expiresAt: number) =>
  leaseUpdate(client, table, owner, "SET lease.#expires = :expires", { ":expires": expiresAt });

/** The flip: searches read `gen` from now on; its superseded versions await removal. */
export const publish = (
  client: DynamoDBDocumentClient,
  table: string,
  owner: string,
  gen: number,
  at: Date,
) =>
  leaseUpdate(client, table, owner, "SET committed = :gen, committedAt = :at, cleanup = :gen", {
    ":gen": gen,
    ":at": at.toISOString(),
  });

export const cleanedUp = (client: DynamoDBDocumentClient, table: string, owner: string) =>
  leaseUpdate(client, table, owner, "REMOVE cleanup");

export const releaseLease = (client: DynamoDBDocumentClient, table: string, owner: string) =>
  leaseUpdate(client, table, owner, "REMOVE lease");
