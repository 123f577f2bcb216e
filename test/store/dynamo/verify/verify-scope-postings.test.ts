/**
 * What verify expects a posted scope's name postings to index: only the persons with names in the
 * scope's companies, each once with their distinct pairs there, in the order the bundles were read,
 * at the generation scope-postings.ts gives them; nothing for a scope with no marker.
 */
import { instantKey } from "../../../../lib/directory/instant-key.js";
import { orderKey } from "../../../../lib/store/binary-keys.js";
import { keyText } from "../../../../lib/store/dynamo/model/batch.js";
import type { Location } from "../../../../lib/store/dynamo/model/codec.js";
import { bundleSort, FAMILY, personPartition } from "../../../../lib/store/dynamo/model/layout.js";
import type { BundleSummary } from "../../../../lib/store/dynamo/verify/summaries.js";
import { scopeNamesEntries } from "../../../../lib/store/dynamo/verify/verify-scope-postings.js";

/** Order keys are passed through: one serves every record and person here. */
const ORDER = orderKey(instantKey("2020-01-01T00:00:00.000Z"), "00000000-0000-4000-8000-000000000001");
const at = (companyId: string): Location => ({
  companyId,
  order: ORDER,
  personId: "p",
  named: true,
  hash: "0".repeat(16),
  names: "0".repeat(16),
  entries: 0,
});

/** A bundle with, per company, the person's names pairs there. */
function bundle(
  gen: number,
  id: string,
  names: Record<string, [string | null, string | null][]>,
): BundleSummary {
  const companies = Object.keys(names);
  return {
    gen,
    entries: gen,
    personOrder: ORDER,
    pairs: new Map(
      companies.map((company) => [
        company,
        new Map([
          [
            FAMILY.personNames,
            JSON.stringify((names[company] ?? []).map(([firstName, lastName]) => ({ firstName, lastName }))),
          ],
        ]),
      ]),
    ),
    records: new Map(companies.map((company) => [`${id}-${company}`, at(company)])),
  };
}

const [ZED, OUT, AMY, NAMELESS] = ["0a", "0b", "0c", "0d"].map(
  (n) => `00000000-0000-4000-8000-0000000000${n}`,
) as [string, string, string, string];

const bundles = new Map<string, BundleSummary>([
  [ZED, bundle(3, ZED, { acme: [["zoe", "weiss"]], beta: [["zoe", "weiss"]] })],
  [OUT, bundle(2, OUT, { other: [["ann", "ng"]] })],
  [AMY, bundle(4, AMY, { beta: [["amy", "li"]], other: [["amy", "li"]] })],
  [NAMELESS, bundle(5, NAMELESS, { acme: [] })],
]);
const SCOPE = "scope:home";
const scopes = new Map([[SCOPE, { companies: ["acme", "beta"] }]]);

test("each person with names in the scope's companies comes once, in the order the bundles were read", () => {
  const entries = [
    ...scopeNamesEntries(scopes, new Map([[SCOPE, { base: 1, changed: new Map() }]]), bundles),
  ];
  expect(entries.map((entry) => [entry.company, keyText(entry.key), JSON.parse(entry.pairs)])).toEqual([
    [
      SCOPE,
      keyText({ p: personPartition(ZED), s: bundleSort(3, 0) }),
      [{ firstName: "zoe", lastName: "weiss" }],
    ],
    [
      SCOPE,
      keyText({ p: personPartition(AMY), s: bundleSort(4, 0) }),
      [{ firstName: "amy", lastName: "li" }],
    ],
  ]);
  expect(entries.map((entry) => entry.gen)).toEqual([3, 4]);
});

test("a company changed after a person's bundle gives their postings its generation", () => {
  const marker = { base: 1, changed: new Map([["beta", 6]]) };
  const entries = [...scopeNamesEntries(scopes, new Map([[SCOPE, marker]]), bundles)];
  expect(entries.map((entry) => entry.gen)).toEqual([6, 6]);
});

test("a scope with no marker is not posted: no entries are expected", () => {
  expect([...scopeNamesEntries(scopes, new Map(), bundles)]).toEqual([]);
});

test("every scope is checked for its own persons", () => {
  const two = new Map([...scopes, ["scope:other", { companies: ["other"] }]]);
  const markers = new Map([
    [SCOPE, { base: 1, changed: new Map() }],
    ["scope:other", { base: 1, changed: new Map() }],
  ]);
  const entries = [...scopeNamesEntries(two, markers, bundles)];
  expect(entries.map((entry) => `${entry.company} ${JSON.parse(entry.pairs)[0].firstName}`)).toEqual([
    `${SCOPE} zoe`,
    `${SCOPE} amy`,
    "scope:other ann",
    "scope:other amy",
  ]);
});
