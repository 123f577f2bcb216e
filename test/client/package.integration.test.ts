/**
 * The client as a partner gets it: `npm run build:client` writes the package, `npm pack` makes its
 * tarball, and a fresh project outside the repository installs it offline (an empty npm cache: the
 * package has no dependency to fetch), type-checks a program against its declarations alone
 * (strict, NodeNext, no library checks skipped) and runs it with top-level await against the local
 * service. A wrong field in a request or an answer fails that type check.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LocalService } from "../../lib/local/service.js";
import { runTool } from "../cli/run-tool.js";
import { demoData, demoKey, demoKeys } from "../support/demo-directory.js";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const COMPANY = "acme-home-care";

/** npm as a partner runs it: none of the settings `npm run` hands this test, its own empty cache. */
function npm(args: string[], cwd: string, cache: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return run("npm", [...args, "--cache", cache], { cwd, env });
}

/** A partner's project: an ES module package, strict TypeScript, Node's types (as a Node project has). */
function writeProject(project: string, files: Record<string, string>): void {
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "partner-app", private: true, type: "module" }),
  );
  const compilerOptions = {
    strict: true,
    target: "es2022",
    lib: ["es2022"],
    module: "nodenext",
    skipLibCheck: false,
    types: ["node"],
    typeRoots: [join(ROOT, "node_modules/@types")],
    outDir: "out",
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
  writeFileSync(
    join(project, "tsconfig.wrong.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true }, files: ["wrong.ts"] }),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
}

const PROGRAM = `import { PartnerDirectoryClient, PartnerDirectoryError, type Person } from "@partner-directory/client";

const client = new PartnerDirectoryClient({
  baseUrl: process.env.BASE_URL!,
  apiKey: process.env.PARTNER_API_KEY!,
  retry: { maxAttempts: 1 },
});
const { message } = await client.hello("${COMPANY}");
const page = await client.searchEmployees({ companyId: "${COMPANY}", limit: 2 });
const persons: Person[] = [];
for await (const person of client.allPersons({ companyId: "${COMPANY}", limit: 7 })) persons.push(person);
const refusal = await client.hello("bad id!").then(
  () => "answered",
  (error: unknown) => (error instanceof PartnerDirectoryError ? \`\${error.status} \${error.error}\` : String(error)),
);
console.log(JSON.stringify({
  message,
  companies: page.employees.map((employee) => employee.companyId),
  total: page.pagination.total,
  persons: persons.map((person) => person.id),
  refusal,
}));
`;

const WRONG = `import { PartnerDirectoryClient } from "@partner-directory/client";

const client = new PartnerDirectoryClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "pd_test_example" });
const page = await client.searchEmployees({ companyId: "${COMPANY}", lastNam: "gar" });
const asOf: number = page.asOf;
console.log(asOf);
`;

let service: LocalService;
let folder: string;
let built: string;
let project: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "client-package-"));
  built = join(folder, "package");
  project = join(folder, "partner-app");
  const cache = join(folder, "npm-cache");
  const build = await runTool("lib/cli/build-client.ts", ["--out", built]);
  if (build.code !== 0) throw new Error(`build:client failed: ${build.stderr}`);
  const packed = await npm(["pack", "--json", "--pack-destination", folder], built, cache);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  mkdirSync(project);
  writeProject(project, { "main.ts": PROGRAM, "wrong.ts": WRONG });
  await npm(["install", "--offline", "--no-audit", "--no-fund", join(folder, filename)], project, cache);
  const { startLocalService } = await import("../../lib/local/service.js");
  service = await startLocalService({ port: 0, stage: "local", keys: demoKeys.records, data: demoData });
});

afterAll(async () => {
  await service?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it("is an ES module package of its own: types, no dependency, the repository's version", () => {
  const installed = join(project, "node_modules/@partner-directory/client");
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  expect(manifest).toMatchObject({
    name: "@partner-directory/client",
    version,
    type: "module",
    exports: { ".": { types: "./index.d.ts", import: "./index.js" } },
    engines: { node: expect.stringMatching(/^>=\d/) },
  });
  expect(manifest.dependencies).toBeUndefined();
  const declarations = ["index.d.ts", "client.d.ts", "contract.d.ts", "errors.d.ts"].map((name) =>
    readFileSync(join(installed, name), "utf8"),
  );
  // Every import of the declarations is of the package's own files.
  const specifiers = declarations.flatMap((text) => [...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]));
  expect(specifiers.length).toBeGreaterThan(0);
  expect(specifiers.filter((specifier) => !specifier?.startsWith("./"))).toEqual([]);
});

it("type-checks a partner's program and runs it, with top-level await, against the service", async () => {
  await run(process.execPath, [TSC, "-p", project]).catch((error: { stdout?: string }) => {
    throw new Error(`tsc refused the program:\n${error.stdout}`);
  });
  const { stdout } = await run(process.execPath, [join(project, "out/main.js")], {
    cwd: project,
    env: { PATH: process.env.PATH, BASE_URL: service.url, PARTNER_API_KEY: demoKey("Demo Partner") },
  });
  const records = demoData.employees.filter((record) => record.companyId === COMPANY);
  const persons = new Set(records.flatMap((record) => (record.personId ? [record.personId] : [])));
  const answer = JSON.parse(stdout);
  expect(answer).toEqual({
    message: expect.stringMatching(/\S/),
    companies: [COMPANY, COMPANY],
    total: records.length,
    persons: expect.any(Array),
    refusal: "400 invalid_company_id",
  });
  expect(new Set(answer.persons)).toEqual(persons);
  expect(answer.persons).toHaveLength(persons.size);
});

it("refuses at compile time a request field the route does not take and a wrong answer type", async () => {
  const refused = await run(process.execPath, [TSC, "-p", "tsconfig.wrong.json"], { cwd: project }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  const errors = refused.split("\n").filter((line) => /error TS\d+/.test(line));
  expect(errors).toEqual([
    expect.stringMatching(
      /^wrong\.ts\(4,\d+\): error TS\d+: Object literal may only specify known properties.*'lastNam'/,
    ),
    expect.stringMatching(
      /^wrong\.ts\(5,7\): error TS2322: Type 'string' is not assignable to type 'number'/,
    ),
  ]);
});
