/**
 * Which account and region a stage's stacks are for. Each stage belongs to one account
 * (STAGE_ACCOUNTS in infra/config.ts), and nothing may put it anywhere else:
 *
 * - an account is "known" when the CLI's credentials give one (CDK_DEFAULT_ACCOUNT) or the
 *   caller names one (`-c account=…`); the two must agree;
 * - a known account other than the stage's pinned one is refused, naming both;
 * - a pinned account becomes the stacks' account, so even an assembly synthesized without
 *   credentials (`npm run synth`) can only be deployed there: the CDK CLI refuses to deploy a
 *   stack into an account other than its own;
 * - a stage with no pinned account synthesizes only when no account is known (tests, synth
 *   without credentials), environment-agnostic as before; with one, it is refused until pinned.
 */
import type { Environment } from "aws-cdk-lib";
import type { StageConfig } from "./config.js";

export interface KnownTarget {
  /** `-c account=…`. */
  readonly contextAccount?: string;
  /** CDK_DEFAULT_ACCOUNT: set by the CDK CLI from its credentials. */
  readonly cliAccount?: string;
  /** CDK_DEFAULT_REGION. */
  readonly region?: string;
}

const ACCOUNT_ID = /^\d{12}$/;

export function stageEnvironment(
  config: Pick<StageConfig, "stage" | "account">,
  known: KnownTarget,
): Environment {
  const { stage, account: pinned } = config;
  if (pinned !== undefined && !ACCOUNT_ID.test(pinned)) {
    throw new Error(
      `stage ${stage}: the pinned account "${pinned}" in infra/config.ts is not a 12-digit account id`,
    );
  }
  if (known.contextAccount !== undefined && !ACCOUNT_ID.test(known.contextAccount)) {
    throw new Error(`-c account=${known.contextAccount} is not a 12-digit account id`);
  }
  if (known.contextAccount && known.cliAccount && known.contextAccount !== known.cliAccount) {
    throw new Error(
      `-c account=${known.contextAccount} but the CLI's credentials are for account ${known.cliAccount}: use the credentials of the account you mean`,
    );
  }
  const target = known.contextAccount ?? known.cliAccount;
  const source = known.contextAccount ? "-c account" : "the CLI's credentials (CDK_DEFAULT_ACCOUNT)";
  if (pinned === undefined) {
    if (target !== undefined) {
      throw new Error(
        `stage ${stage} has no account pinned: refusing to synthesize it for account ${target} (from ${source}). ` +
          `Set STAGE_ACCOUNTS.${stage} in infra/config.ts to the stage's own account first (one account per stage, docs/operations.md).`,
      );
    }
    return { account: undefined, region: known.region };
  }
  if (target !== undefined && target !== pinned) {
    throw new Error(
      `stage ${stage} deploys only to account ${pinned} (infra/config.ts), but this synth is for account ${target} (from ${source}). ` +
        `Use the ${stage} account's credentials.`,
    );
  }
  return { account: pinned, region: known.region };
}
