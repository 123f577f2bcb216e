/**
 * A load on the DynamoDB store. It holds the lease (renewed while it runs), writes every change as
 * new versions at its own generation (invisible to searches, which read the committed one), and
 * journals each chunk first. Commit is one conditional write of the manifest; the versions it
 * superseded are removed once no search can still be reading them.
 */
import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceEmployee, SourcePerson } from "../../directory/source.js";
import type { Change, DirectoryWriter, LoadSession } from "../port.js";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { batchGet, batchWrite, bytesOf, inParallel, keyOf, keyText, sleep } from "./batch.js";
import { journal } from "./journal.js";
import { idOfPartition, isLocationPartition, LOCATION_SORT, locationPartition } from "./layout.js";
import { type LeaseHolder, thisProcess } from "./lease-holder.js";
import {
  nextBundles,
  planChunk,
  reorderedPersons,
  type StoredBundle,
  type StoredLocation,
  storedLocation,
  touchedPersons,
} from "./load-plan.js";
import { acquireLease, cleanedUp, type Lease, publish, releaseLease, renewLease } from "./manifest.js";
import { MANIFEST_TTL_MS, MAX_READ_AGE_MS } from "./reader.js";
import { directoryReads } from "./reads.js";

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

export const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
export const GRACE_MS = MANIFEST_TTL_MS + MAX_READ_AGE_MS + 500;
/** Changes per chunk: every read and write of a chunk is batched. */
const CHUNK = 200;
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

export function dynamoDirectoryWriter(
  client: DynamoDBDocumentClient,
  table: string,
  options: WriterOptions = {},
): DirectoryWriter {
  const now = options.now ?? Date.now;
  const ttl = options.leaseTtlMs ?? LEASE_TTL_MS;
  const reads = directoryReads(client, table);
  const log = journal(client, table);

  /** Finishes what a dead load left: undo its uncommitted writes, or clean up after its commit. */
  const recover = async (abandoned: Lease | undefined, committed: number, cleanup: number | undefined) => {
    if (abandoned && abandoned.gen > committed) await log.undo(abandoned.gen);
    if (cleanup !== undefined) await log.cleanUp(cleanup);
    // Whatever is journaled under the generation about to be written was never committed: undo it
    // too, even when no lease names it (the journal of an undo that was itself cut short).
    if (abandoned?.gen !== committed + 1) await log.undo(committed + 1);
  };

  return {
    async beginLoad(label) {
      const owner = randomUUID();
      const { manifest, lease, abandoned } = await acquireLease(
        client,
        table,
        { owner, label, startedAt: now(), holder: options.holder ?? thisProcess() },
        ttl,
        options.isDead,
      );
      let lost: unknown;
      const renew = setInterval(() => {
        renewLease(client, table, owner, now() + ttl).catch((error: unknown) => {
          lost ??= error;
        });
      }, options.renewEveryMs ?? RENEW_EVERY_MS);
      renew.unref();
      const stop = () => clearInterval(renew);
      const alive = () => {
        if (lost) throw lost;
      };
      try {
        await recover(abandoned, manifest.committed, manifest.cleanup);
        if (manifest.cleanup !== undefined) await cleanedUp(client, table, owner);
      } catch (error) {
        stop();
        throw error;
      }

      const gen = lease.gen;
      const at = { gen, consistent: true };
      const dangling = new Map<string, string>();
      let seq = 0;
      let published = false;

      const locationsOf = async (ids: Iterable<string>) => {
        const keys = [...ids].map((id) => ({ p: locationPartition(id), s: LOCATION_SORT }));
        const found = await batchGet(client, table, keys, true);
        return new Map(
          keys.map((key) => {
            const item = found.get(keyText(key));
            return [idOfPartition(key.p), item ? storedLocation(item) : undefined] as const;
          }),
        );
      };

      const applyChunk = async (changes: readonly Change[]) => {
        alive();
        const { records, persons } = finalValues(changes);
        const locations = new Map<string, StoredLocation | undefined>(await locationsOf(records.keys()));
        const touched = touchedPersons(records, persons, locations);
        const bundles = new Map<string, StoredBundle | undefined>();
        await inParallel([...touched], BUNDLES_IN_FLIGHT, async (id) => {
          bundles.set(id, await reads.bundle(id, at));
        });
        // Records of a person whose order changes carry it: their locations are needed too.
        const input = { records, persons, locations, bundles };
        const next = nextBundles(input, touched);
        const others = reorderedPersons(input, next).flatMap((id) =>
          (next.get(id)?.employees ?? []).map((record) => record.id).filter((rid) => !locations.has(rid)),
        );
        for (const [id, stored] of await locationsOf(others)) locations.set(id, stored);

        const plan = planChunk({ gen, ...input });
        for (const [personId, employeeId] of plan.dangling) {
          if (employeeId === null) dangling.delete(personId);
          else dangling.set(personId, employeeId);
        }
        if (plan.puts.length + plan.deletes.length + plan.stamps.length === 0) return;
        await log.write(gen, seq++, {
          // Location items are restored from their own previous value, not deleted.
          puts: plan.puts
            .map(keyOf)
            .filter((key) => !isLocationPartition(key.p))
            .map(keyText),
          stamps: plan.stamps.map(keyText),
          locations: plan.locations,
        });
        await batchWrite(client, table, [
          ...plan.puts.map((put) => ({ put })),
          ...plan.deletes.map((key) => ({ delete: key })),
        ]);
        await log.stamp(plan.stamps, gen, false);
      };

      const session: LoadSession = {
        async apply(changes) {
          for (let i = 0; i < changes.length; i += CHUNK) await applyChunk(changes.slice(i, i + CHUNK));
        },
        async *storedIds(kind) {
          const prefix = Uint8Array.of(kind === "person" ? 0x00 : 0x01);
          let start: Record<string, unknown> | undefined;
          let last: string | undefined;
          do {
            const page = await client.send(
              new ScanCommand({
                TableName: table,
                ConsistentRead: true,
                ExclusiveStartKey: start,
                FilterExpression:
                  kind === "person"
                    ? "begins_with(#p, :prefix) AND #k = :one AND (attribute_not_exists(#x) OR #x > :gen)"
                    : "begins_with(#p, :prefix) AND attribute_exists(#d)",
                ExpressionAttributeNames:
                  kind === "person"
                    ? { "#p": A.partition, "#k": A.hasPerson, "#x": A.supersededAt }
                    : { "#p": A.partition, "#d": A.data },
                ExpressionAttributeValues:
                  kind === "person" ? { ":prefix": prefix, ":one": 1, ":gen": gen } : { ":prefix": prefix },
                ProjectionExpression: "#p",
              }),
            );
            for (const item of page.Items ?? []) {
              const id = idOfPartition(bytesOf(item[A.partition]));
              // A person's chunks and versions come one after another.
              if (id !== last) yield id;
              last = id;
            }
            start = page.LastEvaluatedKey;
          } while (start);
        },
        async danglingReference() {
          const [first] = dangling;
          return first && { personId: first[0], employeeId: first[1] };
        },
        async commit() {
          alive();
          if (options.settleMs) await sleep(options.settleMs);
          await publish(client, table, owner, gen, new Date(now()));
          published = true;
          try {
            await sleep(options.graceMs ?? GRACE_MS);
            await log.cleanUp(gen);
            await cleanedUp(client, table, owner);
            await releaseLease(client, table, owner);
            return {};
          } catch (error) {
            // Applied all the same; the manifest names the clean-up, and the next load does it.
            return { cleanupDeferred: (error as Error).message };
          } finally {
            stop();
          }
        },
        async abort() {
          // Once published, the generation is the directory: a failed clean-up is finished by the next load.
          if (published) return stop();
          try {
            await log.undo(gen);
            await releaseLease(client, table, owner);
          } finally {
            stop();
          }
        },
      };
      return session;
    },
  };
}
