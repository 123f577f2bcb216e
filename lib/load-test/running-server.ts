/**
 * The load test against a running server: its own keys (generous, narrow, throttled) in the
 * server's keys table, as `npm run keys -- create` makes them, revoked when the run ends, also on
 * a failure or Ctrl-C; its workload from a sample of the server's directory (directory-sample.ts);
 * the server's RSS from /proc when its pid is known.
 */
import { OPERATIONS } from "../auth/operations.js";
import { failureLine } from "../cli/args.js";
import { keepKeyScopesAfterChange } from "../cli/key-scopes.js";
import { say } from "../cli/terminal-text.js";
import { generateApiKey } from "../keys/api-key.js";
import { issueKey, type KeyTarget } from "../keys/key-admin.js";
import { tableKeyTarget } from "../keys/table-target.js";
import { LOCAL_TABLE_NAMES } from "../local/config.js";
import { localClient } from "../local/engines.js";
import { dynamoDirectoryReader } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { keysRepository } from "../store/keys-repository.js";
import { companiesOfKeys, sampleDirectory } from "./directory-sample.js";
import { readRss } from "./proc-rss.js";
import type { LoadTarget, RunningServer } from "./target.js";
import { type LoadKeyId, type LoadKeySpec, loadKeys, mainWorkload, throttledWorkload } from "./workload.js";

/** Revokes the keys issued so far and drops their scopes; reports, never throws. */
async function revokeAll(target: KeyTarget, keyIds: readonly string[], endpoint: string): Promise<void> {
  if (keyIds.length === 0) return;
  const left: string[] = [];
  for (const keyId of keyIds)
    await target.revoke(keyId, new Date()).catch((error: unknown) => {
      left.push(`${keyId} (${failureLine(error)})`);
    });
  if (left.length > 0) {
    say(
      `warning: not revoked: ${left.join(", ")}; run \`npm run keys -- revoke KEY_ID --endpoint ${endpoint}\``,
    );
    return;
  }
  say(`revoked the load test's keys: ${keyIds.join(", ")}`);
  await keepKeyScopesAfterChange(target, { endpoint });
}

/**
 * Issues the load test's keys on the running server and builds its workload. `onCleanup` receives
 * what revokes them as soon as the first exists, so an interrupted run revokes them too.
 */
export async function runningTarget(
  server: RunningServer,
  throttle: LoadKeySpec["throttle"],
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<LoadTarget> {
  const client = localClient(server.dynamodb);
  const documents = documentClientFor(client);
  const target = tableKeyTarget(keysRepository(documents, LOCAL_TABLE_NAMES.keys));
  const reader = dynamoDirectoryReader(documents, LOCAL_TABLE_NAMES.directory, { answerCacheBytes: 0 });
  const issued: string[] = [];
  // Keeping the key scopes is a load: an interrupted run lets it finish before revoking.
  let scopesKept: Promise<void> = Promise.resolve();
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= scopesKept
      .then(() => revokeAll(target, issued, server.dynamodb))
      .finally(() => client.destroy());
    return closed;
  };
  onCleanup(close);
  const sample = await sampleDirectory(reader, companiesOfKeys(await target.list()));
  // Live keys: a server started with STAGE=prod refuses test keys.
  const plain: Partial<Record<LoadKeyId | "unknown", string>> = { unknown: generateApiKey("live") };
  for (const spec of loadKeys(sample, throttle)) {
    const { plainKey, record } = await issueKey(
      {
        partner: `load test (${spec.id} key)`,
        operations: [...OPERATIONS],
        companies: [...spec.companies],
        throttle: spec.throttle,
        environment: "live",
      },
      target,
    );
    issued.push(record.keyId);
    plain[spec.id] = plainKey;
  }
  say(`issued the load test's keys on the running server: ${issued.join(", ")}`);
  scopesKept = keepKeyScopesAfterChange(target, { endpoint: server.dynamodb });
  await scopesKept;
  const { pid } = server;
  const memory = pid === undefined ? { skipped: "the server's pid is not known" } : await rssReader(pid);
  return {
    server: `the running server at ${server.url}`,
    url: server.url,
    dynamodb: server.dynamodb,
    companyIds: sample.summary.companyIds,
    keys: plain as Record<LoadKeyId | "unknown", string>,
    main: mainWorkload(sample),
    throttled: throttledWorkload(sample),
    dataset: {
      records: sample.records,
      persons: sample.summary.persons,
      companies: sample.summary.companyIds.length,
    },
    memory,
    close,
  };
}

/** Samples of the process's RSS, or why there are none (checked once, before the load). */
async function rssReader(pid: number): Promise<LoadTarget["memory"]> {
  try {
    await readRss(pid);
  } catch (error) {
    return { skipped: `cannot read the server's RSS: ${failureLine(error)}` };
  }
  return async () => ({ rss: await readRss(pid) });
}
