/**
 * `npm run keys -- … --endpoint URL` against the engine of a running local server: the key it
 * creates works at once with its tier's throttle, `list` shows when it was created and its tier,
 * and `revoke` refuses it at once; they and `set-companies` keep the directory's scopes to the
 * keys' company lists.
 * The keys CLI runs as a person runs it, in its own process.
 */
import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import type { LocalService } from "../../lib/local/service.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { readScopes } from "../../lib/store/dynamo/structures/scope-registry.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const run = promisify(execFile);
/**
 * Bound on waiting for the server to see a change. It needs about a second (USAGE_PLANS_MAX_AGE_MS);
 * the bound is for a server that never does, so a busy machine cannot reach it.
 */
const DEADLINE_MS = 300_000;

function keys(args: string[]) {
  return run(process.execPath, [...TYPESCRIPT_NODE_OPTIONS, "lib/cli/keys.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
  });
}

let engine: Engine;
let service: LocalService;
const frozenNow = Date.parse("2026-06-01T12:00:00Z");

beforeAll(async () => {
  const { startLocalService } = await import("../../lib/local/service.js");
  engine = await startDynalite();
  // A frozen clock for the throttle: no token comes back while the test runs, however slow it is.
  service = await startLocalService({ port: 0, stage: "local", keys: [], engine, now: () => frozenNow });
});

afterAll(async () => {
  await service?.stop();
  await engine?.stop();
});

const hello = (key: string) =>
  fetch(`${service.url}/v1/companies/acme-home-care/hello`, { headers: { authorization: `Bearer ${key}` } });

/** Asks until the answer has `status` or the deadline passes; returns the last status seen. */
async function statusWithin(key: string, status: number): Promise<number> {
  const deadline = Date.now() + DEADLINE_MS;
  let seen: number;
  do {
    seen = (await hello(key)).status;
    if (seen === status) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < deadline);
  return seen;
}

it("a key created and revoked with --endpoint counts on the running server, with its tier's throttle", async () => {
  const created = await keys([
    "create",
    "--partner",
    "Live",
    "--operations",
    "companies.hello",
    "--companies",
    "acme-home-care",
    "--tier",
    "trial",
    "--endpoint",
    engine.endpoint,
  ]);
  const key = created.stdout.trim();
  // stderr's first line: `created key_… for Live: {…the record as listed…}`
  const [createdLine = ""] = created.stderr.split("\n");
  const described = JSON.parse(createdLine.slice(createdLine.indexOf("{"))) as Record<string, string>;

  expect(await statusWithin(key, 200)).toBe(200);
  // The trial tier's burst, on a clock that does not move: the first answer took one token.
  const burst = THROTTLE_TIERS.trial.burstLimit;
  const statuses: number[] = [];
  for (let i = 1; i <= burst; i++) statuses.push((await hello(key)).status);
  expect(statuses).toEqual([...Array(burst - 1).fill(200), 429]);

  const listed = (await keys(["list", "--endpoint", engine.endpoint])).stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(listed).toEqual([
    expect.objectContaining({
      keyId: described.keyId,
      tier: "trial",
      throttle: THROTTLE_TIERS.trial,
      createdAt: described.createdAt,
    }),
  ]);

  await keys(["revoke", String(described.keyId), "--endpoint", engine.endpoint]);
  expect(await statusWithin(key, 401)).toBe(401);
});

it("create, set-companies and revoke with --endpoint keep the directory's scopes to the keys' company lists", async () => {
  const directory = documentClientFor(engine.client());
  const keptScopes = async () => {
    const { committed } = await readManifest(directory, LOCAL_TABLE_NAMES.directory);
    const scopes = await readScopes(directory, LOCAL_TABLE_NAMES.directory, {
      gen: committed,
      consistent: true,
    });
    return [...scopes.values()].map((scope) => scope.companies);
  };
  const companies = ["beta-care", "acme-home-care"];
  const created = await keys([
    "create",
    "--partner",
    "Wide",
    "--operations",
    "persons.search",
    "--companies",
    companies.join(","),
    "--tier",
    "trial",
    "--endpoint",
    engine.endpoint,
  ]);
  expect(created.stderr).toMatch(
    /^persons searches: the directory keeps a combined order for 1 company list of the keys \(each of 2 or more companies\)$/m,
  );
  // This directory holds no data.
  expect(created.stderr).toContain(
    "warning: not in the directory (no employee records): beta-care, acme-home-care; the key reads nothing there until they are loaded",
  );
  expect(await keptScopes()).toEqual([[...companies].sort()]);
  const [createdLine = ""] = created.stderr.split("\n");
  const { keyId } = JSON.parse(createdLine.slice(createdLine.indexOf("{"))) as { keyId: string };

  const persons = await fetch(`${service.url}/v1/persons/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${created.stdout.trim()}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(persons.status).toBe(200);

  const wider = [...companies, "cedar-grove-caregivers"];
  const widened = await keys([
    "set-companies",
    keyId,
    "--companies",
    wider.join(","),
    "--endpoint",
    engine.endpoint,
  ]);
  expect(widened.stderr).toMatch(
    /^persons searches: the directory keeps a combined order for 1 company list/m,
  );
  expect(await keptScopes()).toEqual([[...wider].sort()]);

  const revoked = await keys(["revoke", keyId, "--endpoint", engine.endpoint]);
  expect(revoked.stderr).toMatch(/^persons searches: no key reads 2 or more companies/m);
  expect(await keptScopes()).toEqual([]);
  const again = await keys(["scopes", "--endpoint", engine.endpoint]);
  expect(again.stderr).toMatch(/^persons searches: no key reads 2 or more companies/m);
  const revokedAgain = await keys(["revoke", keyId, "--endpoint", engine.endpoint]);
  expect(revokedAgain.stderr).toBe(`${keyId} (Wide) was already revoked\n`);
});
