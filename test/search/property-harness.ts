/**
 * What the reference-model property tests share: loading a generated directory into the suite's
 * table, and the two properties every search has (`modelProperties`): it answers as the model
 * does, and its pages join into the model's whole answer. Every run also compares deliberate
 * requests (random-directory.ts `deliberateRequests`), so no seed compares only empty answers.
 */
import fc from "fast-check";
import type { Principal } from "../../lib/auth/principal.js";
import type { DataFile } from "../../lib/directory/source.js";
import { ForbiddenError } from "../../lib/http/errors.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { freshDirectory } from "../support/directory-store.js";
import { describeEachEngine, type EngineContext, itByTurns } from "../support/engines.js";
import {
  bodyOf,
  type Directory,
  deliberateRequests,
  directoryArbitrary,
  materialize,
  requestArbitrary,
  scopeArbitrary,
  scopeOf,
} from "./random-directory.js";
import { FORBIDDEN } from "./reference-model.js";
import { AS_OF, principalOf } from "./search-context.js";

/**
 * Runs of each property. Each property runs on one engine, by turns from the seed (`itByTurns`):
 * over an even and an odd seed, both on both. Loading a directory is most of a run's cost, so each
 * run loads it into an emptied table (a first load) and asks several questions of it.
 * PROPERTY_SEED=N repeats a run; a new seed every run covers more ground over time.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = { matches: 24, pages: 12 } as const;

async function loaded(context: EngineContext, directory: Directory): Promise<DirectoryReader> {
  return freshDirectory(context, directory.data);
}

/** One search as the properties see it: the real use case, its model, and what each checks. */
export interface ModelSearch<Request, Response extends { pagination: { total: number } }, Drawn> {
  readonly suite: string;
  readonly search: "persons" | "employees";
  /** Whether generated requests always name a company. */
  readonly company: "required" | "optional";
  readonly titles: { readonly matches: string; readonly pages: string };
  readonly parse: (body: Record<string, unknown>) => Request;
  readonly model: (
    data: DataFile,
    scope: ReadonlySet<string>,
    request: Request,
    asOf: Date,
  ) => Response | typeof FORBIDDEN;
  readonly run: (
    request: Request,
    principal: Principal,
    repository: DirectoryReader,
    asOf: Date,
  ) => Promise<Response>;
  /** The ids an answer lists, in order. */
  readonly ids: (response: Response) => string[];
  /** What the model comparison alone would miss: nothing the key may not read. */
  readonly expectAuthorized: (
    response: Response,
    request: Request,
    directory: Directory,
    scope: ReadonlySet<string>,
  ) => void;
  /** The paging property's draw (besides the directory and the page size)... */
  readonly pagingDraw: fc.Arbitrary<Drawn>;
  /** ...and the key scope and whole-answer request (offset 0, limit 100) made of it. */
  readonly pagingCase: (
    directory: Directory,
    drawn: Drawn,
  ) => { scope: ReadonlySet<string>; body: Record<string, unknown> };
}

/** Declares, on both engines, the model comparison and the paging property of one search. */
export function modelProperties<Request, Response extends { pagination: { total: number } }, Drawn>(
  s: ModelSearch<Request, Response, Drawn>,
): void {
  describeEachEngine(`${s.suite} (PROPERTY_SEED=${SEED})`, (getEngine, engine) => {
    const it = itByTurns(SEED, engine);
    it(s.titles.matches, () => assertMatchesModel(s, getEngine, RUNS.matches));
    it(s.titles.pages, () => assertPagesJoin(s, getEngine, RUNS.pages));
  });
}

async function assertMatchesModel<Request, Response extends { pagination: { total: number } }, Drawn>(
  s: ModelSearch<Request, Response, Drawn>,
  getEngine: () => EngineContext,
  numRuns: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      directoryArbitrary,
      scopeArbitrary,
      fc.array(requestArbitrary(s.company), { minLength: 2, maxLength: 8 }),
      requestArbitrary(s.company),
      async (spec, mask, requests, deliberateSpec) => {
        const directory = materialize(spec);
        const scope = scopeOf(mask, directory);
        const repository = await loaded(getEngine(), directory);
        /** The use case against the model: FORBIDDEN, or the number of matches. */
        const compare = async (body: Record<string, unknown>, keyScope: ReadonlySet<string>) => {
          const request = s.parse(body);
          const expected = s.model(directory.data, keyScope, request, AS_OF);
          const principal = principalOf(keyScope);
          if (expected === FORBIDDEN) {
            await expect(s.run(request, principal, repository, AS_OF)).rejects.toThrow(ForbiddenError);
            return FORBIDDEN;
          }
          const actual = await s.run(request, principal, repository, AS_OF);
          expect(actual).toEqual(expected);
          s.expectAuthorized(actual, request, directory, keyScope);
          return expected.pagination.total;
        };
        for (const requestSpec of requests) await compare(bodyOf(requestSpec, directory), scope);
        const deliberate = deliberateRequests(directory, deliberateSpec, s.search);
        expect(await compare(deliberate.forbidden, scope)).toBe(FORBIDDEN);
        const readable = new Set([...scope, deliberate.company]);
        expect(await compare(deliberate.matching, readable)).toBeGreaterThan(0);
      },
    ),
    { numRuns, seed: SEED },
  );
}

async function assertPagesJoin<Request, Response extends { pagination: { total: number } }, Drawn>(
  s: ModelSearch<Request, Response, Drawn>,
  getEngine: () => EngineContext,
  numRuns: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      directoryArbitrary,
      fc.array(fc.tuple(s.pagingDraw, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 3 }),
      async (spec, cases) => {
        const directory = materialize(spec);
        const repository = await loaded(getEngine(), directory);
        for (const [drawn, limit] of cases) {
          const { scope, body } = s.pagingCase(directory, drawn);
          const whole = s.model(directory.data, scope, s.parse(body), AS_OF);
          if (whole === FORBIDDEN) throw new Error("the paging case must be a request the key may make");
          const seen: string[] = [];
          for (let offset = 0; offset <= whole.pagination.total; offset += limit) {
            const request = s.parse({ ...body, limit, offset });
            const page = await s.run(request, principalOf(scope), repository, AS_OF);
            expect(page.pagination).toEqual({ limit, offset, total: whole.pagination.total });
            seen.push(...s.ids(page));
          }
          expect(seen).toEqual(s.ids(whole));
        }
      },
    ),
    { numRuns, seed: SEED },
  );
}
