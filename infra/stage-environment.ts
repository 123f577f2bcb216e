/**
 * Which account and region a stage's stacks are for. Each stage belongs to one account
 * (STAGE_SETTINGS in infra/config.ts, or `-c account=…` where none is written there), and
 * nothing may put it anywhere else:
 *
 * - the CLI's credentials (CDK_DEFAULT_ACCOUNT) for another account than the stage's are refused,
 *   naming both;
 * - the stage's account becomes the stacks' account, so even an assembly synthesized without
 *   credentials (`npm run synth`) can only be deployed there: the CDK CLI refuses to deploy a
 *   stack into an account other than its own;
 * - a stage with no account (dev only: sandbox and prod need one to synthesize at all)
 *   synthesizes only when no account is known (tests, synth without credentials),
 *   environment-agnostic; with credentials it is refused until its account is set.
 *
 * The region is the stage's (STAGE_SETTINGS or `-c region`), else the CLI's (CDK_DEFAULT_REGION).
 */
import type { Environment } from "aws-cdk-lib";
import type { StageConfig } from "./config.js";
import { SettingsError } from "./deployment-settings.js";

export interface KnownTarget {
  /** CDK_DEFAULT_ACCOUNT: set by the CDK CLI from its credentials. */
  readonly cliAccount?: string;
  /** CDK_DEFAULT_REGION. */
  readonly region?: string;
}

export function stageEnvironment(
  config: Pick<StageConfig, "stage" | "account" | "region">,
  known: KnownTarget,
): Environment {
  const { stage, account } = config;
  const region = config.region ?? known.region;
  if (account === undefined) {
    if (known.cliAccount !== undefined) {
      throw new SettingsError(
        `stage ${stage} has no account: refusing to synthesize it for account ${known.cliAccount} (the CLI's credentials). ` +
          `Set STAGE_SETTINGS.${stage}.account in infra/config.ts to the stage's own account first (one account per stage, docs/operations.md).`,
      );
    }
    return { account: undefined, region };
  }
  if (known.cliAccount !== undefined && known.cliAccount !== account) {
    throw new SettingsError(
      `stage ${stage} deploys only to account ${account}, but the CLI's credentials are for account ${known.cliAccount}. ` +
        `Use the ${stage} account's credentials.`,
    );
  }
  return { account, region };
}
