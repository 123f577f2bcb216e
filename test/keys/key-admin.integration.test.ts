import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "../../lib/keys/api-key.js";
import { issueKey, type NewKeyRequest } from "../../lib/keys/key-admin.js";
import { tableKeyTarget } from "../../lib/keys/table-target.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { keysFileTarget } from "../../lib/local/keys-file-target.js";
import { THROTTLE_TIERS } from "../../lib/stages.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { keysRepository } from "../../lib/store/keys-repository.js";
import { describeEachEngine } from "../support/engines.js";
import { fakeUsagePlanGateway } from "./fake-usage-plan-gateway.js";

const REQUEST: NewKeyRequest = {
  partner: "Acme",
  operations: ["companies.hello", "persons.search"],
  companies: ["acme-home-care"],
  throttle: { rateLimit: 10, burstLimit: 20 },
  tier: "standard",
  environment: "test",
};

const tempFile = () => join(mkdtempSync(join(tmpdir(), "keys-")), "keys.json");

describe("keys file target", () => {
  it("adds a new key the local server accepts, lists it without the key, and revokes it", async () => {
    const file = tempFile();
    const target = keysFileTarget(file);
    const { plainKey, record } = await issueKey(REQUEST, target);
    expect(isWellFormedApiKey(plainKey)).toBe(true);

    const loaded = parseKeysFile(readFileSync(file, "utf8"), file);
    expect(loaded.records).toHaveLength(1);
    expect(loaded.records[0]).toMatchObject({
      keyId: record.keyId,
      keyHash: hashApiKey(plainKey),
      status: "active",
    });

    const listed = await target.list();
    expect(listed.map((r) => r.keyId)).toEqual([record.keyId]);
    expect(JSON.stringify(listed)).not.toContain(plainKey);

    const revoked = await target.revoke(record.keyId, new Date("2026-01-01T00:00:00Z"));
    expect(revoked).toMatchObject({ keyId: record.keyId, status: "revoked" });
    expect(parseKeysFile(readFileSync(file, "utf8"), file).records[0]?.status).toBe("revoked");
    expect(await target.revoke("key_doesNotExist0000", new Date())).toBeUndefined();
  });

  it("writes the tier, or else the custom throttle, and when the key was created", async () => {
    const file = tempFile();
    const target = keysFileTarget(file);
    const created = new Date("2026-03-04T05:06:07.089Z");
    await issueKey({ ...REQUEST, tier: "trial", throttle: THROTTLE_TIERS.trial }, target, created);
    const { tier: _tier, ...custom } = { ...REQUEST, throttle: { rateLimit: 1, burstLimit: 2 } };
    await issueKey(custom, target, created);
    const entries = JSON.parse(readFileSync(file, "utf8")).keys as Record<string, unknown>[];
    expect(entries[0]).toMatchObject({ tier: "trial", createdAt: "2026-03-04T05:06:07.089Z" });
    expect(entries[0]).not.toHaveProperty("throttle");
    expect(entries[1]).toMatchObject({
      throttle: { rateLimit: 1, burstLimit: 2 },
      createdAt: created.toISOString(),
    });
    expect(entries[1]).not.toHaveProperty("tier");
  });

  it("lists each key's creation time and tier as written, and none for a hand-written key", async () => {
    const file = tempFile();
    const target = keysFileTarget(file);
    const created = new Date("2026-03-04T05:06:07.089Z");
    const { record } = await issueKey(
      { ...REQUEST, tier: "trial", throttle: THROTTLE_TIERS.trial },
      target,
      created,
    );
    const entries = JSON.parse(readFileSync(file, "utf8")).keys as Record<string, unknown>[];
    const handWritten = { key: generateApiKey("test"), partner: "Hand", operations: [], companies: [] };
    writeFileSync(file, JSON.stringify({ keys: [...entries, handWritten] }));

    const [issued, written] = await target.list();
    expect(issued).toMatchObject({
      keyId: record.keyId,
      tier: "trial",
      throttle: THROTTLE_TIERS.trial,
      createdAt: "2026-03-04T05:06:07.089Z",
    });
    expect(written).toMatchObject({ partner: "Hand", tier: "standard" });
    expect(written).not.toHaveProperty("createdAt");
  });
});

describe("keys file target: set-tier", () => {
  it("moves a key to another tier, refuses a revoked one, and knows no other key", async () => {
    const file = tempFile();
    const target = keysFileTarget(file);
    const { record } = await issueKey(
      { ...REQUEST, throttle: { rateLimit: 1, burstLimit: 2 }, tier: undefined },
      target,
    );
    const moved = await target.setTier(record.keyId, "premium", THROTTLE_TIERS.premium);
    expect(moved).toMatchObject({ keyId: record.keyId, tier: "premium", throttle: THROTTLE_TIERS.premium });
    const [entry] = JSON.parse(readFileSync(file, "utf8")).keys as Record<string, unknown>[];
    expect(entry).toMatchObject({ tier: "premium" });
    expect(entry).not.toHaveProperty("throttle");
    expect(await target.setTier("key_doesNotExist0000", "trial", THROTTLE_TIERS.trial)).toBeUndefined();
    await target.revoke(record.keyId, new Date());
    const before = readFileSync(file, "utf8");
    await expect(target.setTier(record.keyId, "trial", THROTTLE_TIERS.trial)).rejects.toThrow(/is revoked/);
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("keys file target: set-companies", () => {
  it("gives a key other companies, refuses a revoked one, and knows no other key", async () => {
    const file = tempFile();
    const target = keysFileTarget(file);
    const { record } = await issueKey(REQUEST, target);
    const changed = await target.setCompanies(record.keyId, ["acme-home-care", "beta-care"]);
    expect(changed).toMatchObject({ keyId: record.keyId, companies: ["acme-home-care", "beta-care"] });
    expect(JSON.parse(readFileSync(file, "utf8")).keys[0]).toMatchObject({
      companies: ["acme-home-care", "beta-care"],
    });
    expect(await target.setCompanies("key_doesNotExist0000", ["acme-home-care"])).toBeUndefined();
    await target.revoke(record.keyId, new Date());
    const before = readFileSync(file, "utf8");
    await expect(target.setCompanies(record.keyId, ["acme-home-care"])).rejects.toThrow(/is revoked/);
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describeEachEngine("keys table target", (getEngine) => {
  it("stores only the hash, creates an API Gateway key in the tier's plan, and revoking deletes it", async () => {
    const { client, tables } = getEngine();
    const repository = keysRepository(documentClientFor(client), tables.keys);
    const fake = fakeUsagePlanGateway();
    const target = tableKeyTarget(repository, fake.gateway);

    const { plainKey, record } = await issueKey(REQUEST, target);
    const usageKeyId = record.usageKeyId ?? "";
    expect(record).toMatchObject({ status: "active", usageKeyId: [...fake.keys.keys()][0] });
    expect(fake.keys.get(usageKeyId)).toMatchObject({ name: `prod-${record.keyId}`, value: record.usageKey });
    expect(record.usageKey).not.toBe(plainKey);
    expect(fake.plansOf(usageKeyId)).toEqual(["standard"]);
    const stored = await repository.findByHash(hashApiKey(plainKey));
    expect(stored).toEqual(record);
    expect(JSON.stringify(await repository.list())).not.toContain(plainKey);

    const revoked = await target.revoke(record.keyId, new Date("2026-01-01T00:00:00Z"));
    expect(revoked).toMatchObject({ status: "revoked", revokedAt: "2026-01-01T00:00:00.000Z" });
    expect(fake.keys.size).toBe(0);
    expect(fake.plansOf(usageKeyId)).toEqual([]);
    expect((await repository.findById(record.keyId))?.status).toBe("revoked");
    expect(await target.revoke("key_doesNotExist0000", new Date())).toBeUndefined();
  });

  it("without API Gateway (a local engine), set-tier changes the record's tier and throttle", async () => {
    const { client, tables } = getEngine();
    const repository = keysRepository(documentClientFor(client), tables.keys);
    const target = tableKeyTarget(repository);
    const { record } = await issueKey(REQUEST, target);
    expect(await target.setTier(record.keyId, "trial", THROTTLE_TIERS.trial)).toEqual({
      ...record,
      tier: "trial",
      throttle: THROTTLE_TIERS.trial,
    });
    expect(await repository.findById(record.keyId)).toMatchObject({
      tier: "trial",
      throttle: THROTTLE_TIERS.trial,
    });
  });

  it("set-companies changes an active key's companies and refuses a revoked one, changing nothing", async () => {
    const { client, tables } = getEngine();
    const repository = keysRepository(documentClientFor(client), tables.keys);
    const target = tableKeyTarget(repository);
    const { record } = await issueKey(REQUEST, target);
    const companies = ["acme-home-care", "beta-care"];
    expect(await target.setCompanies(record.keyId, companies)).toEqual({ ...record, companies });
    expect(await repository.findById(record.keyId)).toMatchObject({ companies });
    expect(await target.setCompanies("key_doesNotExist0000", companies)).toBeUndefined();
    await target.revoke(record.keyId, new Date());
    await expect(target.setCompanies(record.keyId, ["acme-home-care"])).rejects.toThrow(/is revoked/);
    expect(await repository.findById(record.keyId)).toMatchObject({ companies });
  });
});

describe("npm run keys", () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run(process.execPath, [...TYPESCRIPT_NODE_OPTIONS, "lib/cli/keys.ts", ...args]);

  it("prints the new key alone on stdout once, and list never shows it", async () => {
    const file = tempFile();
    const created = await cli([
      "create",
      "--partner",
      "Acme",
      "--operations",
      "companies.hello",
      "--companies",
      "acme-home-care",
      "--keys-file",
      file,
    ]);
    const key = created.stdout.trim();
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(created.stderr).not.toContain(key);
    const listed = await cli(["list", "--keys-file", file]);
    expect(listed.stdout).toContain('"partner":"Acme"');
    expect(listed.stdout + listed.stderr).not.toContain(key);
  });

  it("lists a key with the time it was created and its tier", async () => {
    const file = tempFile();
    const created = await cli([
      "create",
      ...["--partner", "Trial", "--operations", "companies.hello", "--companies", "acme-home-care"],
      ...["--tier", "trial", "--keys-file", file],
    ]);
    // stderr's first line: `created key_… for Trial: {…the record as listed…}`
    const [createdLine = ""] = created.stderr.split("\n");
    const issued = JSON.parse(createdLine.slice(createdLine.indexOf("{"))) as Record<string, unknown>;
    const listed = await cli(["list", "--keys-file", file]);
    expect(JSON.parse(listed.stdout)).toEqual({
      keyId: issued.keyId,
      partner: "Trial",
      operations: ["companies.hello"],
      companies: ["acme-home-care"],
      throttle: THROTTLE_TIERS.trial,
      tier: "trial",
      status: "active",
      // A second process, later: its own clock would show a later time.
      createdAt: issued.createdAt,
    });
  });

  it("set-tier moves a key; an unknown tier or key is refused and changes nothing", async () => {
    const file = tempFile();
    await cli([
      "create",
      ...["--partner", "Mover", "--operations", "companies.hello", "--companies", "acme-home-care"],
      ...["--tier", "trial", "--keys-file", file],
    ]);
    const keyId = (JSON.parse((await cli(["list", "--keys-file", file])).stdout) as { keyId: string }).keyId;
    const moved = await cli(["set-tier", keyId, "--tier", "premium", "--keys-file", file]);
    expect(moved.stderr).toContain(`${keyId} (Mover) is in tier premium`);
    const before = readFileSync(file, "utf8");
    expect(JSON.parse(before).keys[0]).toMatchObject({ tier: "premium" });
    await expect(cli(["set-tier", keyId, "--tier", "gold", "--keys-file", file])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--tier"),
    });
    await expect(
      cli(["set-tier", "key_doesNotExist0000", "--tier", "trial", "--keys-file", file]),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no key with id "key_doesNotExist0000"'),
    });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("refuses a key with no companies, and a keys file that is not there", async () => {
    const file = tempFile();
    await expect(
      cli(["create", "--partner", "X", "--operations", "companies.hello", "--keys-file", file]),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--companies must list the companies"),
    });
    expect(existsSync(file)).toBe(false);
    await expect(cli(["list", "--keys-file", file])).rejects.toMatchObject({
      code: 1,
      stderr: `keys: no keys file ${file} (keys create makes one)\n`,
    });
  });

  it("says so when the key was already revoked", async () => {
    const file = tempFile();
    await cli([
      "create",
      ...["--partner", "Gone", "--operations", "companies.hello", "--companies", "acme-home-care"],
      ...["--keys-file", file],
    ]);
    const keyId = (JSON.parse((await cli(["list", "--keys-file", file])).stdout) as { keyId: string }).keyId;
    expect((await cli(["revoke", keyId, "--keys-file", file])).stderr).toBe(`revoked ${keyId} (Gone)\n`);
    expect((await cli(["revoke", keyId, "--keys-file", file])).stderr).toBe(
      `${keyId} (Gone) was already revoked\n`,
    );
  });

  /** What no tool may print raw: controls, bidirectional and other format characters, separators. */
  const RAW = /[\p{Cf}\p{Zl}\p{Zp}]|(?!\n)\p{Cc}/u;
  const createWith = (partner: string, file: string) =>
    cli([
      "create",
      "--partner",
      partner,
      "--operations",
      "companies.hello",
      "--companies",
      "acme",
      "--keys-file",
      file,
    ]);

  it("refuses a partner name that is not 1 to 100 printable characters, or holds key text, quoting none of it", async () => {
    const file = tempFile();
    const key = generateApiKey("test");
    for (const partner of [
      "Acme prod key pd_test_…",
      `Acme ${key}`,
      "a".repeat(20_000),
      "Ac\x1b[31mme\r\x07\u202eevil",
      " Acme",
      "",
    ]) {
      const refused = await createWith(partner, file).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^keys: --partner: the name /),
      });
      const [line = ""] = (refused as { stderr: string }).stderr.split("\n");
      expect(line).toContain("a partner name is 1 to 100 printable characters");
      expect(line).not.toMatch(RAW);
      expect(line).not.toContain("pd_test_");
      expect(line).not.toContain("evil");
      expect(line.length).toBeLessThan(400);
    }
    expect(existsSync(file)).toBe(false);
  });

  it("prints a stored partner name's controls escaped: list (JSON lines and --json), set-tier, revoke", async () => {
    const file = tempFile();
    await createWith("Plain", file);
    const hostile = "Ev\x1b[31mil\r\x07\u202ename\u2028";
    const written = JSON.parse(readFileSync(file, "utf8")) as { keys: Record<string, unknown>[] };
    writeFileSync(
      file,
      JSON.stringify({ keys: written.keys.map((entry) => ({ ...entry, partner: hostile })) }),
    );
    for (const args of [["list"], ["list", "--json"]]) {
      const { stdout } = await cli([...args, "--keys-file", file]);
      expect(stdout.replaceAll("\n", "")).not.toMatch(RAW);
      expect(stdout).toContain("Ev\\u001b[31mil\\r\\u0007\\u202ename\\u2028");
      expect(JSON.parse(stdout)).toMatchObject({ partner: hostile });
    }
    const { keyId } = JSON.parse((await cli(["list", "--keys-file", file])).stdout) as { keyId: string };
    const escaped = "Ev\\u001b[31mil\\u000d\\u0007\\u202ename\\u2028";
    const moved = await cli(["set-tier", keyId, "--tier", "trial", "--keys-file", file]);
    expect(moved.stderr).toBe(`${keyId} (${escaped}) is in tier trial\n`);
    const revoked = await cli(["revoke", keyId, "--keys-file", file]);
    expect(revoked.stderr).toBe(`revoked ${keyId} (${escaped})\n`);
  });

  it("--json goes with list only", async () => {
    await expect(
      cli(["revoke", "key_doesNotExist0000", "--json", "--keys-file", tempFile()]),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^keys: --json goes with list\n/),
    });
  });

  it("refuses bad arguments with a usage message and exit code 2", async () => {
    await expect(
      cli(["create", "--partner", "X", "--operations", "nope", "--keys-file", tempFile()]),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--operations must list some of"),
    });
  });
});
