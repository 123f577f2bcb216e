/**
 * The import rules of functions/, lib/ and infra/ (docs/architecture.md, "Import rules"), checked by
 * `npm run lint:deps` in `npm test`. Type-only imports count (`tsPreCompilationDeps`).
 */
const STORE = "^lib/store/dynamo/";
/** The store's folders, each importing only those listed: model at the bottom, verify and write on top. */
const LAYERS = {
  model: [],
  structures: ["model"],
  manifest: ["model"],
  read: ["model", "structures", "manifest"],
  write: ["model", "structures", "manifest", "read"],
  verify: ["model", "structures", "manifest", "read"],
};
const FOLDERS = Object.keys(LAYERS);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...FOLDERS.map((folder) => ({
      name: `store-layers-${folder}`,
      comment: `lib/store/dynamo/${folder}/ imports only ${LAYERS[folder].join(", ") || "no other folder of the store"}: read never imports write.`,
      severity: "error",
      from: { path: `${STORE}${folder}/` },
      to: {
        path: `${STORE}(${FOLDERS.filter((f) => f !== folder && !LAYERS[folder].includes(f)).join("|")})/`,
      },
    })),
    {
      name: "store-folder-entry",
      comment: "A folder of the store is imported by the other folders only through its index.ts.",
      severity: "error",
      from: { path: `${STORE}([^/]+)/` },
      to: { path: `${STORE}[^/]+/`, pathNot: [`${STORE}$1/`, "/index\\.ts$"] },
    },
    {
      name: "store-entry",
      comment: "The rest of the code imports the DynamoDB store only through lib/store/dynamo/index.ts.",
      severity: "error",
      from: { pathNot: STORE },
      to: { path: STORE, pathNot: `${STORE}index\\.ts$` },
    },
    {
      name: "product-not-tooling",
      comment:
        "Product code (functions/, infra/, lib/) never imports the benchmarks, the load test or the probe.",
      severity: "error",
      from: { pathNot: "^lib/(bench|load-test|probe)/|^lib/cli/bench\\.ts$" },
      to: { path: "^lib/(bench|load-test|probe)/" },
    },
    {
      name: "no-orphans",
      comment:
        "A module nothing imports and that imports nothing is dead, except those loaded by path: " +
        "the bundling's alias of the SDK's credential chain, its afterBundling script, and the TypeScript " +
        "hooks Node loads with --import.",
      severity: "error",
      from: {
        orphan: true,
        pathNot: [
          "\\.d\\.ts$",
          "^infra/(lambda-credentials|source-map-paths)\\.ts$",
          "^lib/cli/typescript-hooks\\.ts$",
        ],
      },
      to: {},
    },
  ],
  options: {
    includeOnly: "^(functions|lib|infra)/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    cache: false,
  },
};
