/**
 * The unit project's guard (no-engines.ts) refuses an engine and a CDK synthesis, so a misnamed or
 * misplaced test file cannot slip in.
 */
import { NO_ENGINE_IN_UNIT, NO_SYNTH_IN_UNIT } from "./no-engines.js";

describe("a unit test file", () => {
  it("may not start dynalite", async () => {
    const { startDynalite } = await import("../../lib/local/engines.js");
    await expect(startDynalite()).rejects.toThrow(NO_ENGINE_IN_UNIT);
  });

  it("may not run java (DynamoDB Local), even through a shell", async () => {
    const { spawnSync, spawn } = await import("node:child_process");
    expect(() => spawnSync("java", ["-version"])).toThrow(NO_ENGINE_IN_UNIT);
    expect(() => spawn("sh", ["-c", 'exec "$@"', "sh", "java", "-jar", "x.jar"])).toThrow(NO_ENGINE_IN_UNIT);
  });

  it("may still run other commands", async () => {
    const { spawnSync } = await import("node:child_process");
    expect(spawnSync(process.execPath, ["-e", "process.exit(3)"]).status).toBe(3);
  });

  it("may not synthesize a CDK app, directly or through Template.fromStack", async () => {
    const { App, Stack } = await import("aws-cdk-lib");
    const { Template } = await import("aws-cdk-lib/assertions");
    const app = new App();
    const stack = new Stack(app, "Unit");
    expect(() => app.synth()).toThrow(NO_SYNTH_IN_UNIT);
    expect(() => Template.fromStack(stack)).toThrow(NO_SYNTH_IN_UNIT);
  });
});
