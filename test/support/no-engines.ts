/**
 * The unit project's guard (jest.config.js): a unit test file that starts dynalite or runs java
 * fails, naming the rule, instead of quietly making `npm run test:unit` slow and java-bound. Such a
 * file belongs in the integration project: name it `*.integration.test.ts`. Importing the engines'
 * modules stays allowed; only starting one is refused. Mocks are per test file, so the integration
 * and browser projects, which may share a worker, are untouched.
 */
import * as childProcess from "node:child_process";
import { jest } from "@jest/globals";

export const NO_ENGINE_IN_UNIT =
  "a unit test may not start a DynamoDB engine: name the file *.integration.test.ts (docs/testing.md)";

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

jest.unstable_mockModule("dynalite", () => ({ default: () => refused("dynalite") }));
