/**
 * After `keys` changes a table's keys: the directory's kept scopes set to the keys' company lists
 * (lib/load/keep-scopes.ts), as one load. The key works at once either way: until its scope is
 * kept, its persons searches read each company's entries (right, only slower over many companies).
 */
import type { KeyTarget } from "../keys/key-admin.js";
import { keyScopes } from "../keys/key-scopes.js";
import { keepScopes } from "../load/keep-scopes.js";
import { callerText } from "../observability/caller-text.js";
import { employmentFilter } from "../search/matching.js";
import { dynamoDirectory, dynamoDirectoryReader } from "../store/dynamo/index.js";
import { AWS_SETTLE_MS, documentClientFor } from "../store/dynamo-client.js";
import { LoadInProgressError } from "../store/port.js";
import { failureLine } from "./args.js";
import { openDirectoryTable, type TableFlags } from "./directory-table.js";
import { say } from "./terminal-text.js";

/** What setting the kept scopes did, as `keys` says it. */
function keptScopesLine(kept: number): string {
  return kept === 0
    ? "persons searches: no key reads 2 or more companies, so the directory keeps no combined order"
    : `persons searches: the directory keeps a combined order for ${kept} ${kept === 1 ? "company list" : "company lists"} of the keys (each of 2 or more companies)`;
}

/** Sets the directory's kept scopes to the keys'; throws what went wrong (another load running, too). */
export async function keepKeyScopes(target: KeyTarget, flags: TableFlags): Promise<void> {
  const { client, table, local } = await openDirectoryTable(flags);
  try {
    const writer = local ? {} : { settleMs: AWS_SETTLE_MS };
    const kept = await keepScopes(
      dynamoDirectory(documentClientFor(client), table, { writer }),
      keyScopes(await target.list()),
    );
    say(keptScopesLine(kept));
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
    say(
      `warning: the directory's kept scopes were not set to the keys' companies (${why}); searches are answered all the same. ` +
        `Run \`npm run keys -- scopes ${where}\` once it can.`,
    );
  }
}

/**
 * Warns about companies with no employee record in the directory (a mistyped id, or data not loaded
 * yet): the key is made all the same. A keys file has no directory to check against.
 */
export async function warnCompaniesNotInDirectory(
  companies: readonly string[],
  flags: TableFlags & { readonly "keys-file"?: string },
): Promise<void> {
  if (flags["keys-file"] !== undefined) return;
  try {
    const { client, table } = await openDirectoryTable(flags);
    try {
      const reader = dynamoDirectoryReader(documentClientFor(client), table, { answerCacheBytes: 0 });
      const absent: string[] = [];
      for (const companyId of companies) {
        const filter = employmentFilter([companyId], {});
        const { total } = await reader.employees({ filter, created: {}, offset: 0, limit: 1 });
        if (total === 0) absent.push(companyId);
      }
      if (absent.length > 0)
        say(
          callerText(
            `warning: not in the directory (no employee records): ${absent.join(", ")}; the key reads nothing there until they are loaded`,
          ),
        );
    } finally {
      client.destroy();
    }
  } catch (error) {
    say(`warning: the companies were not checked against the directory: ${callerText(failureLine(error))}`);
  }
}
