/**
 * The directory follows its source through any sequence of loads (docs/data-format.md, "Keeping
 * the directory current"): random hires, edits, moves, re-links, deletions and snapshots, loaded
 * through the real load use case into the in-memory store and the DynamoDB one (both engines).
 * After each load both answer every search as the reference model does over the state the
 * contract says the load leads to (or the state before, when the load must be refused), and the
 * DynamoDB table holds one version of each item (nothing superseded, no journal) and passes `verify`.
 * Employees name searches of 3 characters or more read the name postings the loads keep.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import type { DataFile } from "../../lib/directory/source.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import type { LoadMode } from "../../lib/load/change-lines.js";
import { keepScopes } from "../../lib/load/keep-scopes.js";
import { DanglingReferenceError, loadFile } from "../../lib/load/load-file.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";
import { searchEmployees } from "../../lib/search/search-employees.js";
import { searchPersons } from "../../lib/search/search-persons.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { type DirectoryState, memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import type { DirectoryReader, DirectoryWriter } from "../../lib/store/port.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";
import { stateOf } from "../search/memory-store.js";
import {
  bodyOf,
  type Directory,
  directoryArbitrary,
  materialize,
  type RequestSpec,
  requestArbitrary,
  scopeArbitrary,
  scopeOf,
} from "../search/random-directory.js";
import { FORBIDDEN, modelSearchEmployees, modelSearchPersons } from "../search/reference-model.js";
import { AS_OF, principalOf } from "../search/search-context.js";
import { directoryOn } from "../support/directory-store.js";
import { describeEachEngine, type EngineContext, sharedOut, TURN_SEED } from "../support/engines.js";
import { type StepSpec, stepArbitrary } from "./change-arbitraries.js";
import { resolveChanges, type StepFile, stepFile, type World, worldOf } from "./change-sequence.js";

/**
 * Runs in all, shared out between the engines (`sharedOut`): every run meets both.
 * `CHANGES_RUNS=200 npm run jest -- test/load/changes.property.integration.test.ts` searches harder.
 */
const NUM_RUNS = Number(process.env.CHANGES_RUNS ?? 8);
const MAX_STEPS = 4;

type Store = DirectoryReader & DirectoryWriter & { readonly name: string };

/** A random key scope and one request of each search, asked after a step. */
interface Probe {
  mask: boolean[];
  persons: RequestSpec;
  employees: RequestSpec;
}
const probeArbitrary: fc.Arbitrary<Probe> = fc.record({
  mask: scopeArbitrary,
  persons: requestArbitrary("optional"),
  employees: requestArbitrary("required"),
});

const dataOf = (state: DirectoryState): DataFile => ({
  persons: [...state.persons.values()],
  employees: [...state.employees.values()],
});

/** The dataset's names (companies, ghost) over the state a step left, for `bodyOf`. */
function viewOf(initial: Directory, state: DirectoryState): Directory {
  return {
    ...initial,
    data: dataOf(state),
    personIds: [...state.persons.keys()],
    unlinkedIds: [...state.employees.values()].filter((r) => r.personId === null).map((r) => r.id),
  };
}

/** Each store's answer equals the model's over `state` (both refuse a company the key may not read). */
async function expectAnswers(
  stores: readonly Store[],
  data: DataFile,
  body: Record<string, unknown>,
  scope: ReadonlySet<string>,
  search: "persons" | "employees",
) {
  const principal = principalOf(scope);
  const expected =
    search === "persons"
      ? modelSearchPersons(data, scope, personsSearchRequestSchema.parse(body), AS_OF)
      : modelSearchEmployees(data, scope, employeesSearchRequestSchema.parse(body), AS_OF);
  for (const store of stores) {
    const answer =
      search === "persons"
        ? searchPersons(personsSearchRequestSchema.parse(body), principal, store, AS_OF)
        : searchEmployees(employeesSearchRequestSchema.parse(body), principal, store, AS_OF);
    if (expected === FORBIDDEN) await expect(answer).rejects.toThrow(ForbiddenError);
    else
      expect({ store: store.name, body, answer: await answer }).toEqual({
        store: store.name,
        body,
        answer: expected,
      });
  }
  return expected === FORBIDDEN ? 0 : expected.pagination.total;
}

/**
 * Name searches of every company, and of persons over every company, after every load: one trigram
 * (`zoë`), the rarest of several grams (`garcía` with a first name of 2 characters), a pair and a
 * letter alone (their own postings, totals from the census).
 */
const NAME_SEARCHES = [
  { firstName: "ZOË" },
  { lastName: "garcía", firstName: "ﬁ" },
  { lastName: "ía" },
  { firstName: "z" },
];

/** Every record of every company, and every person, page by page; then the probes' requests. */
async function expectAgreement(
  stores: readonly Store[],
  initial: Directory,
  state: DirectoryState,
  probes: readonly Probe[],
) {
  const view = viewOf(initial, state);
  const everything = new Set([...initial.companies, initial.ghost]);
  for (const companyId of everything) {
    for (let offset = 0, total = 1; offset < total; offset += 100)
      total = await expectAnswers(
        stores,
        view.data,
        { companyId, offset, limit: 100 },
        everything,
        "employees",
      );
  }
  for (const companyId of everything)
    for (const names of NAME_SEARCHES)
      await expectAnswers(stores, view.data, { companyId, ...names, limit: 100 }, everything, "employees");
  for (let offset = 0, total = 1; offset < total; offset += 100)
    total = await expectAnswers(stores, view.data, { offset, limit: 100 }, everything, "persons");
  // Over every company, a kept scope: its name postings.
  for (const names of NAME_SEARCHES)
    await expectAnswers(stores, view.data, { ...names, limit: 100 }, everything, "persons");
  for (const probe of probes) {
    const scope = scopeOf(probe.mask, view);
    await expectAnswers(stores, view.data, bodyOf(probe.persons, view), scope, "persons");
    await expectAnswers(stores, view.data, bodyOf(probe.employees, view), scope, "employees");
  }
}

/**
 * No version a load superseded (`x`) and no journal entry (partition 0xfe) is left once loads have
 * finished. Checked here, not in a scan filter: dynalite's begins_with reads binary as UTF-8.
 */
async function expectOneVersionPerItem(context: EngineContext) {
  const client = documentClientFor(context.client);
  const left: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: context.tables.directory,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const partition = Buffer.from(item[A.partition]);
      if (item[A.supersededAt] !== undefined || partition[0] === 0xfe)
        left.push(`${partition.toString("hex")}/${Buffer.from(item[A.sort]).toString("hex")}`);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  expect(left).toEqual([]);
}

/** Loads the file into each store; each applies it, or refuses it naming a dangling link, as the model says. */
async function loadEverywhere(
  stores: readonly Store[],
  path: string,
  mode: LoadMode,
  file: StepFile,
  changesPerApply = 1_000,
) {
  for (const store of stores) {
    const outcome = await loadFile(path, mode, store, { changesPerApply, allowShrink: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (file.dangling.length === 0) {
      if (outcome !== undefined) throw outcome;
      continue;
    }
    expect(outcome).toBeInstanceOf(DanglingReferenceError);
    const named = file.dangling.some(
      ({ personId, employeeId }) =>
        (outcome as Error).message.includes(personId) && (outcome as Error).message.includes(employeeId),
    );
    expect({ store: store.name, message: (outcome as Error).message, named }).toMatchObject({ named: true });
  }
}

/** What the steps of one generated run share. */
interface Run {
  readonly stores: readonly Store[];
  readonly memory: ReturnType<typeof memoryDirectory>;
  readonly engine: EngineContext;
  readonly initial: Directory;
  readonly world: World;
  readonly folder: string;
}

/**
 * Loads one step's file into every store (twice when the step repeats), then checks both against
 * the model and the table's invariants. Returns the committed state: the file's, or the one before
 * when the file must be refused.
 */
async function runStep(
  run: Run,
  index: number,
  { step, probes }: { step: StepSpec; probes: readonly Probe[] },
  before: DirectoryState,
): Promise<DirectoryState> {
  // The scopes kept change before each step (new ones derived, dropped ones removed), and the
  // step's load then keeps them: its probes' persons searches read them.
  const view = viewOf(run.initial, before);
  const everything = [...run.initial.companies, run.initial.ghost];
  const scopes = [everything, ...probes.map((probe) => [...scopeOf(probe.mask, view)])];
  for (const store of run.stores) await keepScopes(store, scopes);
  const resolved = resolveChanges(step.changes, before, run.world);
  const file = stepFile(step.mode, resolved, before);
  const path = join(run.folder, `step-${index}`);
  await writeFile(path, file.text);
  for (let times = step.repeat ? 2 : 1; times > 0; times -= 1)
    await loadEverywhere(run.stores, path, step.mode, file, step.changesPerApply);
  const committed = file.dangling.length === 0 ? file.expected : before;
  expect(run.memory.state().persons).toEqual(committed.persons);
  expect(run.memory.state().employees).toEqual(committed.employees);
  await expectAgreement(run.stores, run.initial, committed, probes);
  await expectOneVersionPerItem(run.engine);
  // Every invariant of docs/data-model.md, as `npm run directory -- verify` checks them.
  const report = await verifyDirectory(documentClientFor(run.engine.client), run.engine.tables.directory);
  expect(report).toEqual({
    committed: expect.any(Number),
    items: expect.any(Number),
    records: committed.employees.size,
    persons: committed.persons.size,
  });
  return committed;
}

let runs = 0;

describeEachEngine(
  `loads of random changes, in memory and on DynamoDB (TURN_SEED=${TURN_SEED})`,
  (getEngine, engineName) => {
    const numRuns = sharedOut(Array.from({ length: NUM_RUNS }), TURN_SEED, engineName).length;
    /** An engine given more than 12 runs gets more than jest's 10 minutes (jest.config.js), in proportion. */
    const timeoutMs = numRuns > 12 ? (600_000 * numRuns) / 12 : undefined;
    let folder = "";
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), "changes-property-"));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    (numRuns > 0 ? it : it.skip)(
      "leaves both stores answering as the model of the loaded changes, with one version per item",
      async () => {
        await fc.assert(
          fc.asyncProperty(
            directoryArbitrary,
            fc.array(
              fc.record({
                step: stepArbitrary,
                probes: fc.array(probeArbitrary, { minLength: 1, maxLength: 3 }),
              }),
              {
                minLength: 1,
                maxLength: MAX_STEPS,
              },
            ),
            async (spec, steps) => {
              runs += 1;
              const initial = materialize(spec);
              const world = worldOf([...initial.companies, initial.ghost], runs);
              const memory = memoryDirectory();
              const stores: Store[] = [
                { name: "memory", ...memory },
                { name: "dynamo", ...directoryOn(getEngine()) },
              ];
              // A snapshot: the table forgets the runs before this one.
              const start = join(folder, "initial.json");
              await writeFile(start, JSON.stringify(initial.data));
              let committed = stateOf(initial.data);
              await loadEverywhere(stores, start, "snapshot", {
                text: "",
                expected: committed,
                dangling: [],
              });

              const run: Run = { stores, memory, engine: getEngine(), initial, world, folder };
              for (const [i, step] of steps.entries()) committed = await runStep(run, i, step, committed);
            },
          ),
          { numRuns },
        );
      },
      timeoutMs,
    );
  },
);
