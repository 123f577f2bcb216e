/**
 * Deployment settings for synthesizing sandbox and prod in tests, as `-c` flags would give them
 * (STAGE_SETTINGS holds none in the repository, and both stages refuse to synthesize without).
 */
import type { StageOptions } from "../../infra/stage-stacks.js";

type Options = Omit<StageOptions, "env">;

export const TEST_REGION = "eu-west-1";

export const RELEASE_SETTINGS: Readonly<Record<"sandbox" | "prod", Options>> = {
  sandbox: {
    account: "222222222222",
    region: TEST_REGION,
    alarmEmail: "oncall@example.com",
    searchDomain: "search.sandbox.partners.example.com",
    helloDomain: "hello.sandbox.partners.example.com",
    certificateArn: "arn:aws:acm:eu-west-1:222222222222:certificate/1a1b2c3d-4e5f-6789-abcd-ef0123456789",
  },
  prod: {
    account: "111111111111",
    region: TEST_REGION,
    alarmEmail: "oncall@example.com",
    searchDomain: "search.partners.example.com",
    helloDomain: "hello.partners.example.com",
    certificateArn: "arn:aws:acm:eu-west-1:111111111111:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789",
  },
};

/** The settings a stage needs to synthesize: a release stage's, nothing for dev. */
export function settingsFor(stage: string): Options {
  return stage === "sandbox" || stage === "prod" ? RELEASE_SETTINGS[stage] : {};
}
