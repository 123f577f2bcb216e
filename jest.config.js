/** Jest runs the TypeScript sources as ESM on Node 24 (middy 7 is ESM-only). */
export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["ts-jest", { useESM: true }],
  },
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  setupFiles: ["<rootDir>/test/support/quiet-logs.ts"],
  // DynamoDB Local (java) is started once per run and shared by the workers; see test/support/engines.ts.
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
};
