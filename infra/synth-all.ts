/**
 * `npm run synth`: synthesizes dev, sandbox and prod, each into cdk.out/<stage>, and exits non-zero
 * on the first stage that fails (construct validation, CloudFormation validation or an error
 * annotation). Each folder can be deployed as is: `npx cdk deploy --app cdk.out/<stage> --all`.
 */
import { rmSync } from "node:fs";
import { DEPLOYED_STAGES } from "../lib/stages.js";
import { repoPath } from "./paths.js";
import { addStage, createApp } from "./stage-stacks.js";

let failed = false;
for (const stage of DEPLOYED_STAGES) {
  const outdir = repoPath(`cdk.out/${stage}`);
  rmSync(outdir, { recursive: true, force: true });
  try {
    const app = createApp(outdir);
    addStage(app, stage);
    const assembly = app.synth();
    const errors = assembly.stacks.flatMap((stack) =>
      stack.messages
        .filter((message) => message.level === "error")
        .map((message) => `${message.id}: ${String(message.entry.data)}`),
    );
    for (const stack of assembly.stacks) {
      for (const message of stack.messages.filter((m) => m.level === "warning")) {
        console.warn(`[${stage}] warning ${message.id}: ${String(message.entry.data)}`);
      }
    }
    if (errors.length > 0) throw new Error(errors.join("\n"));
    console.log(`[${stage}] ${assembly.stacks.map((stack) => stack.stackName).join(", ")} -> ${outdir}`);
  } catch (error) {
    failed = true;
    console.error(`[${stage}] synthesis failed:`, error instanceof Error ? error.message : error);
    break;
  }
}
process.exitCode = failed ? 1 : 0;
