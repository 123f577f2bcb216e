/**
 * The unit project's guard (jest.config.js): a unit test file that starts dynalite, runs java or
 * synthesizes a CDK app fails, naming the rule, instead of quietly making `npm run test:unit` slow.
 * A file with an engine belongs in the integration project (name it `*.integration.test.ts`), one
 * that synthesizes in test/infra/ (the infra project). Importing the modules stays allowed; only
 * starting an engine or synthesizing is refused. Mocks are per test file, so the other projects,
 * which may share a worker, are untouched.
 */
import * as childProcess from "node:child_process";
import { jest } from "@jest/globals";

export const NO_ENGINE_IN_UNIT =
  "a unit test may not start a DynamoDB engine: name the file *.integration.test.ts (docs/testing.md)";

export const NO_SYNTH_IN_UNIT =
  "a unit test may not synthesize a CDK app: put the file in test/infra/ (docs/testing.md)";

function refused(what: string): never {
  throw new Error(`${NO_ENGINE_IN_UNIT} (it tried to start ${what})`);
}

/** Whether a command line runs java, directly or through a shell (as startDynamoDbLocal does). */
function runsJava(command: unknown, args: unknown): boolean {
  const words = [command, ...(Array.isArray(args) ? args : [])];
  return words.some((word) => typeof word === "string" && /(^|\/)java(\s|$)/.test(word));
}

function guarded<F extends (...args: never[]) => unknown>(real: F): F {
  return ((...args: Parameters<F>) => {
    if (runsJava(args[0], args[1])) refused("java");
    return real(...args);
  }) as F;
}

const spawn = guarded(childProcess.spawn);
const spawnSync = guarded(childProcess.spawnSync);
// What the engines start java with (lib/local/engines.ts); execFile and friends are left alone.
const overrides = { spawn, spawnSync };
jest.unstable_mockModule("node:child_process", () => ({
  ...childProcess,
  ...overrides,
  default: { ...childProcess, ...overrides },
}));

// The one way to dynalite (lib/local/dynalite-text-store.ts).
jest.unstable_mockModule("../../lib/local/dynalite-text-store.js", () => ({
  loadDynalite: () => () => refused("dynalite"),
}));

// Every synthesis (app.synth(), Template.fromStack) goes through Stage.prototype.synth of the one
// aws-cdk-lib instance of this file; the factory runs only if the file imports aws-cdk-lib.
jest.unstable_mockModule("aws-cdk-lib", () => {
  const cdk = jest.requireActual<typeof import("aws-cdk-lib")>("aws-cdk-lib");
  cdk.Stage.prototype.synth = () => {
    throw new Error(NO_SYNTH_IN_UNIT);
  };
  return { ...cdk, default: cdk };
});
