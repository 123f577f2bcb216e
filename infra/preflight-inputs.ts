/**
 * What `npm run preflight` checks a stage's account against, from the same config the stacks are
 * built from: its region, custom domains and hosted zone, and the concurrency its functions
 * reserve (one route function per deployed route, the authorizer, the ingest).
 */
import { ROUTES, routesForStage } from "../lib/routes.js";
import { stageConfig } from "./config.js";
import type { CustomDomains, SettingOverrides } from "./deployment-settings.js";
import { stackName } from "./stage-stacks.js";

export interface PreflightInputs {
  readonly stage: string;
  readonly region: string | undefined;
  readonly reservedConcurrency: number;
  readonly customDomains: CustomDomains | undefined;
  readonly hostedZoneId: string | undefined;
  /** The stateless stack's name: an API Gateway CloudWatch role of its own is this stage's. */
  readonly statelessStackName: string;
}

export function preflightInputs(stage: string, overrides: SettingOverrides = {}): PreflightInputs {
  const config = stageConfig(stage, overrides);
  const routes = routesForStage(config.stage, ROUTES).length;
  return {
    stage: config.stage,
    region: config.region,
    reservedConcurrency:
      routes * config.routeFunction.reservedConcurrency +
      config.authorizerFunction.reservedConcurrency +
      config.ingestFunction.reservedConcurrency,
    customDomains: config.customDomains,
    hostedZoneId: config.hostedZoneId,
    statelessStackName: stackName(config.stage, "Stateless"),
  };
}
