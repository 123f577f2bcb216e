/**
 * cdk-nag runs in every synth of a stage (addStage adds its AwsSolutions pack as a validation
 * plugin), not only in the tests: an unacknowledged finding fails `cdk synth` and `cdk deploy`.
 * The failing stage is templates only (no bundling); the stage as it is is the shared prod (synth.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Topic } from "aws-cdk-lib/aws-sns";
import { addStage } from "../../infra/stage-stacks.js";
import { settingsFor } from "./stage-settings.js";
import { synthesizeStage, unbundledApp } from "./synth.js";

describe("cdk-nag at synth", () => {
  it("fails the synth of a stage with an unacknowledged finding, and the report names the rule", () => {
    const app = unbundledApp();
    const { stateless } = addStage(app, "prod", { ...settingsFor("prod"), env: {} });
    // No TLS-only policy: AwsSolutions-SNS3, an error.
    new Topic(stateless, "UncheckedTopic");
    expect(() => app.synth()).toThrow(/UncheckedTopic[\s\S]*AwsSolutions-SNS3/);
    const report = readFileSync(join(app.outdir, "validation-report.json"), "utf8");
    expect(report).toContain("AwsSolutions-SNS3");
  });

  it("lets the stage as it is synthesize: every finding is fixed or acknowledged", () => {
    const prod = synthesizeStage("prod");
    expect(prod.synthError).toBeUndefined();
    expect(prod.violations).toEqual([]);
  });
});
