/**
 * After `keys` changes a table's keys: the directory's scopes set to the keys' (lib/load/
 * keep-scopes.ts), as one load. The key works at once either way: until its scope is kept, its
 * persons searches read each company's entries (right, only slower over many companies).
 */
import type { KeyTarget } from "../keys/key-admin.js";
import { keyScopes } from "../keys/key-scopes.js";
import { keepScopes } from "../load/keep-scopes.js";
import { callerText } from "../observability/caller-text.js";
import { dynamoDirectory } from "../store/dynamo/directory.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { LoadInProgressError } from "../store/port.js";
import { failureLine } from "./args.js";
import { openDirectoryTable, type TableFlags } from "./directory-table.js";

/** Sets the directory's scopes to the keys'; throws what went wrong (another load running, too). */
export async function keepKeyScopes(target: KeyTarget, flags: TableFlags): Promise<void> {
  const { client, table } = await openDirectoryTable(flags);
  try {
    const kept = await keepScopes(
      dynamoDirectory(documentClientFor(client), table),
      keyScopes(await target.list()),
    );
    console.error(`the directory keeps the persons order of ${kept} key scopes`);
  } finally {
    client.destroy();
  }
}

/**
 * The same after a key was created, revoked or given other companies, where a failure must not
 * hide that the key change itself is done: it is reported with the command that finishes the job.
 * A keys file has no directory: the local service keeps its keys' scopes when it starts.
 */
export async function keepKeyScopesAfterChange(
  target: KeyTarget,
  flags: TableFlags & { readonly "keys-file"?: string },
): Promise<void> {
  if (flags["keys-file"] !== undefined) return;
  try {
    await keepKeyScopes(target, flags);
  } catch (error) {
    const why =
      error instanceof LoadInProgressError
        ? "a load is running"
        : `it failed: ${callerText(failureLine(error))}`;
    const where = flags.stage ? `--stage ${flags.stage}` : `--endpoint ${flags.endpoint}`;
    console.error(
      `warning: the directory's key scopes were not updated (${why}); searches are answered all the same. ` +
        `Run \`npm run keys -- scopes ${where}\` once it can.`,
    );
  }
}
