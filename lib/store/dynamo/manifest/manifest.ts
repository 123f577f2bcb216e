/**
 * The manifest: one small item holding the committed generation (what every search reads) and the
 * lease of the load in progress. Loads take the lease with a conditional write, renew it while
 * they run, and publish their generation with one conditional write: the flip readers see.
 *
 * Fencing: every lease gets a generation never given before (`issued`), and a lease taken over
 * puts its generation in `abandoned`, which readers and loads never see. A paused loader that
 * wakes after losing its lease can therefore still write, but only into a generation no search
 * reads; its stamps and locations are conditioned so that it cannot undo a later load's.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { LeaseLostError, LoadInProgressError, TableFormatError } from "../../port.js";
import { DIRECTORY_ATTR as A } from "../../tables.js";
import { FORMAT, MANIFEST_KEY, sleep } from "../model/index.js";
import { holderIsDead, isHolder, type LeaseHolder } from "./lease-holder.js";

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
  /** Renewals so far: a taker watches it change on its own clock, never trusting `expiresAt` alone. */
  readonly beat?: number;
}

export interface Manifest {
  /** The generation searches read; 0 before the first load. */
  readonly committed: number;
  readonly committedAt?: string;
  readonly lease?: Lease;
  /** A committed generation whose superseded versions are still to be removed. */
  readonly cleanup?: number;
  /** The highest generation ever given to a lease (absent: `committed`, or the lease's). */
  readonly issued?: number;
  /** Generations never published (a lease taken over, a load undone): never visible. */
  readonly abandoned: readonly number[];
  /**
   * Who held each abandoned generation's lease, where known (by generation). A generation leaves
   * `abandoned` in two flips: the first load to find its holder dead undoes it, keeping the last
   * journal entry (whose writes the holder may have had in flight), and marks it `seenDead`; a later
   * load undoes it whole, and its flip drops it. Without a known holder it stays: a paused loader
   * may still write into it.
   */
  readonly abandonedBy?: Readonly<Record<string, AbandonedHolder>>;
}

/** The holder of an abandoned generation's lease, and whether a flip has seen it dead. */
interface AbandonedHolder extends LeaseHolder {
  readonly seenDead?: true;
}

/** The holders of a manifest item's `abandonedBy`, well-formed ones only. */
function holdersOf(value: unknown): Record<string, AbandonedHolder> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([, holder]) => isHolder(holder)));
}

/** Generations no reader sees: those of loads that lost their lease. */
export const abandonedOf = (manifest: Manifest): ReadonlySet<number> => new Set(manifest.abandoned);

const isGenList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((gen) => typeof gen === "number");

const KEY = { [A.partition]: MANIFEST_KEY.p, [A.sort]: MANIFEST_KEY.s };

/**
 * The manifest; a table published by code of another format (the manifest's `format`, written at
 * each flip, absent before format 3) is refused with `TableFormatError`.
 */
export async function readManifest(client: DynamoDBDocumentClient, table: string): Promise<Manifest> {
  const { Item } = await client.send(new GetCommand({ TableName: table, Key: KEY, ConsistentRead: true }));
  const published = typeof Item?.committed === "number" && Item.committed > 0;
  if (published && Item?.formatVersion !== FORMAT)
    throw new TableFormatError(
      typeof Item?.formatVersion === "number" ? Item.formatVersion : undefined,
      FORMAT,
    );
  return {
    committed: typeof Item?.committed === "number" ? Item.committed : 0,
    ...(typeof Item?.committedAt === "string" ? { committedAt: Item.committedAt } : {}),
    ...(Item?.lease ? { lease: Item.lease as Lease } : {}),
    ...(typeof Item?.cleanup === "number" ? { cleanup: Item.cleanup } : {}),
    ...(typeof Item?.issued === "number" ? { issued: Item.issued } : {}),
    abandoned: isGenList(Item?.abandoned) ? Item.abandoned : [],
    abandonedBy: holdersOf(Item?.abandonedBy),
  };
}

/** The generation a new lease gets: one more than any given before. */
const nextGeneration = (manifest: Manifest): number =>
  Math.max(manifest.committed, manifest.issued ?? 0, manifest.lease?.gen ?? 0) + 1;

/** How a taker tells a live holder from a dead one on its own clock. */
export interface LeaseWatch {
  /** The taker's own clock (epoch ms); only differences of it are used. */
  readonly now: () => number;
  /** Waits `ms` on that clock. */
  readonly wait: (ms: number) => Promise<void>;
}

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

const refusal = (lease: Lease) => new LoadInProgressError(lease.label, lease.startedAt, lease.expiresAt);

/**
 * Whether a lease whose expiry has passed (by the holder's clock, as seen on ours) is dead: its
 * heartbeat did not move for a whole lease period on our own clock. Another host's clock may be
 * skewed by minutes, so its `expiresAt` alone never hands over a lease.
 */
async function stillBeating(
  client: DynamoDBDocumentClient,
  table: string,
  held: Lease,
  ttlMs: number,
  watch: LeaseWatch,
): Promise<boolean> {
  const since = watch.now();
  const step = Math.max(1, Math.ceil(ttlMs / 10));
  while (watch.now() - since <= ttlMs) {
    await watch.wait(step);
    const now = (await readManifest(client, table)).lease;
    // Released meanwhile: the take-over's condition fails and the lease is read again.
    if (!now) return false;
    if (now.owner !== held.owner || (now.beat ?? 0) !== (held.beat ?? 0)) return true;
  }
  return false;
}

/**
 * Takes the lease for a new load, or refuses naming the running one. A lease held by a process
 * known to be dead (`holderIsDead`: on this host, its pid gone), or whose heartbeat stood still for
 * a lease period on the taker's own clock, belonged to a load that died: it is taken over, on the
 * condition that its owner still holds it at the same beat, its generation is abandoned, and it is
 * returned so the new load can undo its writes.
 */
export async function acquireLease(
  client: DynamoDBDocumentClient,
  table: string,
  wanted: Omit<Lease, "gen" | "expiresAt" | "beat">,
  ttlMs: number,
  isDead: (lease: Lease) => boolean = (lease) => holderIsDead(lease.holder),
  watch: LeaseWatch = { now: () => performance.now(), wait: sleep },
): Promise<{ manifest: Manifest; lease: Lease }> {
  // A load that finished between our read and our write changed the manifest: read it again.
  for (let attempt = 1; ; attempt += 1) {
    const manifest = await readManifest(client, table);
    const held = manifest.lease;
    // Refused at once while the lease looks live by the holder's clock: a skewed clock may only delay a take-over.
    if (held && !isDead(held) && held.expiresAt > wanted.startedAt) throw refusal(held);
    if (held && !isDead(held) && (await stillBeating(client, table, held, ttlMs, watch))) throw refusal(held);
    const gen = nextGeneration(manifest);
    const lease: Lease = { ...wanted, expiresAt: wanted.startedAt + ttlMs, gen, beat: 0 };
    const taken = abandon(manifest, gen, held);
    if (await takeLease(client, table, taken, lease, held)) return { manifest: taken, lease };
    // Another load took it between our read and our write.
    const winner = (await readManifest(client, table)).lease;
    if (winner && winner.owner !== held?.owner) throw refusal(winner);
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

/**
 * The manifest once a lease of generation `gen` is given: every generation given before it and
 * never published (a load taken over, or one that gave up) is abandoned, with the holder of the
 * lease taken over (`held`) where recorded.
 */
function abandon(manifest: Manifest, gen: number, held?: Lease): Manifest {
  const unpublished: number[] = [];
  for (let g = manifest.committed + 1; g < gen; g += 1)
    if (!manifest.abandoned.includes(g)) unpublished.push(g);
  const abandonedBy =
    held?.holder && isHolder(held.holder) && held.gen > manifest.committed
      ? { ...manifest.abandonedBy, [held.gen]: held.holder }
      : (manifest.abandonedBy ?? {});
  return { ...manifest, abandoned: [...manifest.abandoned, ...unpublished], abandonedBy };
}

/**
 * Writes the lease on the condition that the manifest is as read (`held` the lease taken over, at
 * the beat read); false when it is not. `issued` and `abandoned` (as `taken`, from `abandon`) are
 * written with it.
 */
const takeLease = (
  client: DynamoDBDocumentClient,
  table: string,
  taken: Manifest,
  lease: Lease,
  held: Lease | undefined,
): Promise<boolean> => {
  const beat = held?.beat === undefined ? "attribute_not_exists(lease.#beat)" : "lease.#beat = :beat";
  return updateManifestIf(client, table, {
    UpdateExpression: "SET lease = :lease, issued = :gen, abandoned = :abandoned, abandonedBy = :by",
    ConditionExpression: held
      ? `lease.#owner = :held AND ${beat} AND (attribute_not_exists(committed) OR committed = :committed)`
      : "attribute_not_exists(lease) AND (attribute_not_exists(committed) OR committed = :committed)",
    ExpressionAttributeNames: held ? { "#owner": "owner", "#beat": "beat" } : undefined,
    ExpressionAttributeValues: {
      ":lease": lease,
      ":gen": lease.gen,
      ":abandoned": taken.abandoned,
      ":by": taken.abandonedBy ?? {},
      ":committed": taken.committed,
      ...(held ? { ":held": held.owner } : {}),
      ...(held?.beat === undefined ? {} : { ":beat": held.beat }),
    },
  });
};

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
      ...(update.includes("#beat") ? { "#beat": "beat" } : {}),
    },
    ExpressionAttributeValues: { ":owner": owner, ...values },
  });
  if (!held) throw new LeaseLostError();
}

/** Renews the lease: a later expiry, and one more beat for a taker to see. */
export const renewLease = (client: DynamoDBDocumentClient, table: string, owner: string, expiresAt: number) =>
  leaseUpdate(
    client,
    table,
    owner,
    "SET lease.#expires = :expires, lease.#beat = if_not_exists(lease.#beat, :zero) + :one",
    { ":expires": expiresAt, ":zero": 0, ":one": 1 },
  );

/** Abandoned generations, and their holders, as a flip leaves them. */
export type AbandonedList = Required<Pick<Manifest, "abandoned" | "abandonedBy">>;

/** What a load's recovery did to abandoned generations whose holders are dead. */
export interface DeadHolders {
  /** Found dead for the first time: undone but the last journal entry; marked at the flip. */
  readonly seen: readonly number[];
  /** Found dead again and undone whole: they leave the list at the flip. */
  readonly cleared: readonly number[];
}

/**
 * The abandoned list as the flip leaves it: `cleared` gone, `seen` marked. Only at a flip: a
 * generation after the committed one and not listed would be abandoned again.
 */
export function afterRecovery(list: Manifest, { seen, cleared }: DeadHolders): AbandonedList {
  const gone = new Set(cleared.map(String));
  const marked = new Set(seen.map(String));
  const abandonedBy: Record<string, AbandonedHolder> = {};
  for (const [gen, holder] of Object.entries(list.abandonedBy ?? {}))
    if (!gone.has(gen)) abandonedBy[gen] = marked.has(gen) ? { ...holder, seenDead: true } : holder;
  return { abandoned: list.abandoned.filter((gen) => !gone.has(String(gen))), abandonedBy };
}

/**
 * The flip: searches read `gen` from now on, in this code's format; its superseded versions await
 * removal. `abandoned`: the list it leaves, as `afterRecovery` gives it.
 */
export const publish = (
  client: DynamoDBDocumentClient,
  table: string,
  owner: string,
  gen: number,
  at: Date,
  abandoned?: AbandonedList,
) =>
  leaseUpdate(
    client,
    table,
    owner,
    `SET committed = :gen, committedAt = :at, cleanup = :gen, formatVersion = :format${
      abandoned ? ", abandoned = :abandoned, abandonedBy = :by" : ""
    }`,
    {
      ":gen": gen,
      ":at": at.toISOString(),
      ":format": FORMAT,
      ...(abandoned ? { ":abandoned": abandoned.abandoned, ":by": abandoned.abandonedBy } : {}),
    },
  );

export const cleanedUp = (client: DynamoDBDocumentClient, table: string, owner: string) =>
  leaseUpdate(client, table, owner, "REMOVE cleanup");

export const releaseLease = (client: DynamoDBDocumentClient, table: string, owner: string) =>
  leaseUpdate(client, table, owner, "REMOVE lease");

/**
 * Releases the lease of a load that wrote nothing, giving its generation back: the next load gets
 * it, so loads that change nothing never grow the abandoned list.
 */
export const giveBackLease = (client: DynamoDBDocumentClient, table: string, owner: string, gen: number) =>
  leaseUpdate(client, table, owner, "SET issued = :before REMOVE lease", { ":before": gen - 1 });

/**
 * Releases the lease of a load undone after it wrote, abandoning its generation with this process
 * as its holder: a write of it still in flight lands where no reader looks, and the generation
 * leaves the list once a later load finds this process gone.
 */
export async function abandonLease(
  client: DynamoDBDocumentClient,
  table: string,
  owner: string,
  lease: { readonly gen: number; readonly holder: LeaseHolder },
): Promise<void> {
  // The lease is ours, so the list read is the list: only a lease's taker changes it.
  const { abandoned, abandonedBy } = await readManifest(client, table);
  await leaseUpdate(client, table, owner, "SET abandoned = :abandoned, abandonedBy = :by REMOVE lease", {
    ":abandoned": abandoned.includes(lease.gen) ? abandoned : [...abandoned, lease.gen],
    ":by": { ...abandonedBy, [lease.gen]: lease.holder },
  });
}
