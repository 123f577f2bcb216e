/**
 * The authorizer's answer is cached at most 60 s in every stage: the bound on a revocation or a
 * scope change reaching requests (docs/operations.md). The shared templates (synth.ts).
 */
import { DEPLOYED_STAGES } from "../../lib/stages.js";
import { synthesizeStage } from "./synth.js";
import { props, resources } from "./template-helpers.js";

it.each(DEPLOYED_STAGES)("%s caches the authorizer's answers 60 s at most", (stage) => {
  const template = synthesizeStage(stage).statelessTemplate;
  const authorizers = resources(template, "AWS::ApiGateway::Authorizer");
  expect(authorizers.length).toBeGreaterThan(0);
  for (const [, authorizer] of authorizers) {
    const ttl = props(authorizer).AuthorizerResultTtlInSeconds;
    expect(typeof ttl).toBe("number");
    expect(ttl).toBeLessThanOrEqual(60);
  }
});
