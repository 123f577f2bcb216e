/**
 * The authorizer's answer is cached at most 60 s in every stage: the bound on a revocation or a
 * scope change reaching requests (docs/operations.md). Templates only: no bundling.
 */
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { addStage, cdkJsonContext } from "../../infra/stage-stacks.js";
import { DEPLOYED_STAGES } from "../../lib/stages.js";
import { settingsFor } from "./stage-settings.js";
import { props, resources } from "./template-helpers.js";

it.each(DEPLOYED_STAGES)("%s caches the authorizer's answers 60 s at most", (stage) => {
  const app = new App({ context: { ...cdkJsonContext(), "aws:cdk:bundling-stacks": [] } });
  const template = Template.fromStack(addStage(app, stage, { ...settingsFor(stage), env: {} }).stateless);
  const authorizers = resources(template, "AWS::ApiGateway::Authorizer");
  expect(authorizers.length).toBeGreaterThan(0);
  for (const [, authorizer] of authorizers) {
    const ttl = props(authorizer).AuthorizerResultTtlInSeconds;
    expect(typeof ttl).toBe("number");
    expect(ttl).toBeLessThanOrEqual(60);
  }
});
