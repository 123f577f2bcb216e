/**
 * Jest runs the TypeScript sources as ESM on Node 24 (middy 7 is ESM-only), their types stripped by
 * Node itself (test/support/strip-types.cjs), in four projects chosen by folder and file name
 * (docs/testing.md):
 *
 * - unit: every other `*.test.ts`; no engine, no java, no browser, no CDK synthesis
 *   (test/support/no-engines.ts fails a file that starts an engine or synthesizes).
 * - infra: every test file under test/infra/: the CDK stages, synthesized once per run and shared
 *   by the files (test/infra/synth.ts). Run by jest-light-runner in child processes, each importing
 *   its files with Node's own loader (typescript-hooks.ts): aws-cdk-lib is loaded once per process,
 *   where jest's own runner evaluates it anew in every file (about 4 s of CPU each; the project
 *   took 180 s of CPU, now 67). Child processes, not threads: CDK's bundling hands process.stderr
 *   to esbuild as stdio, which a worker thread's stderr cannot be.
 * - integration: `*.integration.test.ts` elsewhere, on dynalite and DynamoDB Local
 *   (test/support/engines.ts).
 * - browser: `*.browser.test.ts`, headless Chromium from @sparticuz/chromium.
 *
 * JEST_PROJECT=unit (the `test:unit` script) keeps one project and leaves the command line free for
 * file patterns and options (`--selectProjects` would take a file pattern after it as a project).
 */
import { availableParallelism } from "node:os";

const INTEGRATION = "\\.integration\\.test\\.ts$";
const BROWSER = "\\.browser\\.test\\.ts$";
const INFRA = "<rootDir>/test/infra/";

const shared = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": "<rootDir>/test/support/strip-types.cjs",
  },
  roots: ["<rootDir>/test"],
};

export const unit = {
  ...shared,
  displayName: "unit",
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", INTEGRATION, BROWSER, INFRA],
  setupFiles: ["<rootDir>/test/support/quiet-logs.ts", "<rootDir>/test/support/no-engines.ts"],
};

export const infra = {
  ...shared,
  displayName: "infra",
  testMatch: [`${INFRA}**/*.test.ts`],
  runner: "jest-light-runner/child-process",
  setupFiles: ["<rootDir>/lib/cli/typescript-hooks.ts", "<rootDir>/test/support/quiet-logs.ts"],
  // A temporary folder for the stages synthesized in this run (test/infra/synth.ts).
  globalSetup: "<rootDir>/test/infra/global-setup.ts",
  globalTeardown: "<rootDir>/test/infra/global-teardown.ts",
};

export const integration = {
  ...shared,
  displayName: "integration",
  testMatch: [`**/*.integration.test.ts`],
  testPathIgnorePatterns: ["/node_modules/", INFRA],
  setupFiles: ["<rootDir>/test/support/quiet-logs.ts"],
  // DynamoDB Local (java) is started once per run and shared by the workers; see test/support/engines.ts.
  // A project's globalSetup runs only when the run includes a test file of that project.
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
};

export const browser = {
  ...shared,
  displayName: "browser",
  testMatch: ["**/*.browser.test.ts"],
  setupFiles: ["<rootDir>/test/support/quiet-logs.ts"],
};

const PROJECTS = { unit, infra, integration, browser };

function selected(name) {
  if (!name) return Object.values(PROJECTS);
  const project = PROJECTS[name];
  if (!project) throw new Error(`JEST_PROJECT=${name}: not one of ${Object.keys(PROJECTS).join(", ")}`);
  return [project];
}

/**
 * One file more than cores (jest's default is one fewer): part of an integration file's time is
 * spent waiting (child loaders, DynamoDB Local's JVM, a load's grace after the flip), and with two
 * files on two cores about 14% of a clean run's CPU time went unused. Each suite has tables of its
 * own, so files sharing DynamoDB Local do not meet.
 */
export default {
  // No test races a clock: on a busy machine an engine's start, a child process or a synthesis can
  // take minutes. A hung test still ends, after 10 minutes. (A global option: projects cannot set it.
  // jest-light-runner, which runs the infra project, applies no timeout at all.)
  testTimeout: 600_000,
  maxWorkers: availableParallelism() + 1,
  // A worker keeps part of every file's modules: over a whole run its RSS grew from 0.6 GB to
  // 2.35 GB and every file in it ran slower. Past 400 MB of heap it is replaced between files
  // (measured: a whole run 10% less wall and CPU than at 1 GB, and no worker force-exited at the end).
  workerIdleMemoryLimit: "400MB",
  // The longest files first, on a clean clone too.
  testSequencer: "<rootDir>/test/support/sequencer.js",
  projects: selected(process.env.JEST_PROJECT),
};
