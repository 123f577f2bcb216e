/**
 * Where a deployed stage's resources are: the stack publishes their names as SSM parameters under
 * `/partner-directory/<stage>/`, so the CLIs need no CloudFormation lookups.
 */
import { DEPLOYED_STAGES, type DeployedStage } from "../stages.js";
import { choiceOption, required } from "./args.js";

/** The `--stage` flag's deployed stage; anything else is a UsageError. */
export function deployedStage(value: string | undefined): DeployedStage {
  return required("stage", choiceOption("stage", value, DEPLOYED_STAGES));
}

/** The value of one of a stage's parameters (`stageParameterNames`). */
export async function readStageParameter(path: string): Promise<string> {
  // Loaded here: only a command naming a deployed stage needs SSM, and the client costs every
  // local run of the CLIs that import this file part of their start.
  const { GetParameterCommand, SSMClient } = await import("@aws-sdk/client-ssm");
  const ssm = new SSMClient({});
  try {
    const { Parameter } = await ssm.send(new GetParameterCommand({ Name: path }));
    if (!Parameter?.Value) throw new Error("empty");
    return Parameter.Value;
  } catch (error) {
    throw new Error(
      `cannot read SSM parameter ${path} (is the stage deployed, and are AWS credentials set?): ${(error as Error).message}`,
    );
  } finally {
    ssm.destroy();
  }
}
