/**
 * Synthesizes one stage the way `cdk synth` does (cdk.json feature flags, real esbuild bundling),
 * with cdk-nag's AwsSolutions pack as a validation plugin (added by addStage), once per test file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Validations } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import type { IConstruct } from "constructs";
import { addStage, createApp, type StageOptions, type StageStacks } from "../../infra/stage-stacks.js";

export interface SynthesizedStage extends StageStacks {
  /** What the stage was synthesized with (as `-c …` would give). */
  readonly options: StageOptions;
  readonly statefulTemplate: Template;
  readonly statelessTemplate: Template;
  /** Every rule violation reported by a validation plugin (cdk-nag, CloudFormation rules). */
  readonly violations: string[];
  /** The synthesis error, if validation failed. */
  readonly synthError?: string;
  readonly acknowledgments: { readonly path: string; readonly id: string; readonly reason: string }[];
  /** The cloud assembly directory (bundled assets are in `asset.<hash>/`). */
  readonly outdir: string;
  readonly millis: number;
}

interface ReportShape {
  pluginReports?: {
    pluginName?: string;
    violations?: { ruleName: string; severity?: string; description: string }[];
  }[];
}

/** Environment-agnostic, as a synth without credentials is (the account pinning has its own tests). */
export function synthesizeStage(stage: string, given: Omit<StageOptions, "env"> = {}): SynthesizedStage {
  const started = Date.now();
  const app = createApp();
  const options: StageOptions = { ...given, env: {} };
  const stacks = addStage(app, stage, options);
  let synthError: string | undefined;
  let outdir = app.outdir;
  try {
    outdir = app.synth().directory;
  } catch (error) {
    synthError = error instanceof Error ? error.message : String(error);
  }
  const templateOf = (stackName: string) =>
    Template.fromJSON(JSON.parse(readFileSync(join(outdir, `${stackName}.template.json`), "utf8")));
  return {
    ...stacks,
    options,
    statefulTemplate: templateOf(stacks.stateful.stackName),
    statelessTemplate: templateOf(stacks.stateless.stackName),
    violations: readViolations(join(outdir, "validation-report.json")),
    synthError,
    acknowledgments: collectAcknowledgments(app),
    outdir,
    millis: Date.now() - started,
  };
}

function readViolations(reportPath: string): string[] {
  if (!existsSync(reportPath)) return [];
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as ReportShape;
  return (report.pluginReports ?? []).flatMap((plugin) =>
    (plugin.violations ?? []).map(
      (violation) =>
        `${plugin.pluginName ?? "?"} ${violation.severity ?? ""} ${violation.ruleName}: ${violation.description}`,
    ),
  );
}

function collectAcknowledgments(root: IConstruct): SynthesizedStage["acknowledgments"] {
  const found: { path: string; id: string; reason: string }[] = [];
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      // Recorded by Validations.acknowledge() as { [ruleId]: reason }.
      for (const [id, reason] of Object.entries((entry.data ?? {}) as Record<string, unknown>)) {
        found.push({ path: construct.node.path, id, reason: typeof reason === "string" ? reason : "" });
      }
    }
  }
  return found;
}
