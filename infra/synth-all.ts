/**
 * `npm run synth`: synthesizes each stage whose settings are complete into cdk.out/<stage>, and
 * says per stage whether its output is deployable:
 *
 * - deployable: its account (and, for sandbox and prod, every deployment setting) is set in
 *   STAGE_SETTINGS (infra/config.ts); `npx cdk deploy --app cdk.out/<stage> --all` deploys it;
 * - check only: dev without an account, synthesized environment-agnostic (not for deploying);
 * - not synthesized: sandbox or prod with settings missing, named on the line.
 *
 * Exit 1 on the first stage that fails to synthesize (construct validation, CloudFormation
 * validation or an error annotation). `--help` answers at once.
 */
import { rmSync } from "node:fs";
import { cli } from "../lib/cli/args.js";
import { DEPLOYED_STAGES } from "../lib/stages.js";
import { stageConfig } from "./config.js";
import { SettingsError } from "./deployment-settings.js";
import { repoPath } from "./paths.js";
import { addStage, createApp } from "./stage-stacks.js";

const USAGE = `usage: npm run synth

Synthesizes dev, sandbox and prod from infra/config.ts (STAGE_SETTINGS) into cdk.out/<stage>,
one line per stage: deployable, check only (dev without an account: environment-agnostic), or
not synthesized (sandbox or prod with settings missing, named). Exit 1 if a stage fails.
With -c overrides, synthesize one stage instead: npx cdk synth -c stage=prod -c region=… …`;

/** One stage: its line, or a thrown error for a synthesis that failed. */
function synthStage(stage: (typeof DEPLOYED_STAGES)[number]): string {
  let config: ReturnType<typeof stageConfig>;
  try {
    config = stageConfig(stage);
  } catch (error) {
    if (error instanceof SettingsError) return `[${stage}] not synthesized: ${error.message}`;
    throw error;
  }
  const outdir = repoPath(`cdk.out/${stage}`);
  rmSync(outdir, { recursive: true, force: true });
  const app = createApp(outdir);
  addStage(app, stage);
  const assembly = app.synth();
  for (const stack of assembly.stacks) {
    for (const message of stack.messages.filter((m) => m.level === "warning")) {
      console.warn(`[${stage}] warning ${message.id}: ${String(message.entry.data)}`);
    }
  }
  const errors = assembly.stacks.flatMap((stack) =>
    stack.messages
      .filter((message) => message.level === "error")
      .map((message) => `${message.id}: ${String(message.entry.data)}`),
  );
  if (errors.length > 0) throw new Error(`[${stage}] synthesis failed: ${errors.join("; ")}`);
  return config.account === undefined
    ? `[${stage}] check only, not deployable (no account in STAGE_SETTINGS.${stage}): ${outdir}`
    : `[${stage}] deployable to account ${config.account}: npx cdk deploy --app cdk.out/${stage} --all`;
}

cli({ name: "synth", usage: USAGE, options: {} }, async () => {
  for (const stage of DEPLOYED_STAGES) console.log(synthStage(stage));
});
