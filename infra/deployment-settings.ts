/**
 * A stage's deployment settings (STAGE_SETTINGS in infra/config.ts, each overridable by `-c`):
 * account, region, alarm email, custom domains and certificate. A release stage (sandbox, prod)
 * is refused unless all of them are set, so no synth writes a template for it that would delete
 * its domains, re-enable execute-api or unsubscribe on-call. Every refusal is a SettingsError: one
 * line, printed without a stack trace by the app and `npm run synth`.
 */
import type { DeployedStage } from "../lib/stages.js";

/** A refusal of the stage's settings: the app prints its message alone and exits 1. */
export class SettingsError extends Error {}

/** The two APIs' custom domains and the one ACM certificate (same region as the APIs) covering both. */
export interface CustomDomains {
  /** Serves {base_url}: the search API. */
  readonly searchDomain: string;
  /** Serves {hello_base_url}: the greeting API. */
  readonly helloDomain: string;
  readonly certificateArn: string;
}

/**
 * What only the platform team knows about a stage's home. Every field is present; undefined means
 * "not filled in yet", which a release stage refuses.
 */
export interface DeploymentSettings {
  /** The stage's own 12-digit AWS account (docs/operations.md "One account per stage"). */
  readonly account: string | undefined;
  /** The stage's region, e.g. `eu-west-1`: the stacks, the APIs and the certificate live there. */
  readonly region: string | undefined;
  /** Subscribed to the alarm topic (a release stage may use `-c alarmTopicArn=…` instead). */
  readonly alarmEmail: string | undefined;
  readonly searchDomain: string | undefined;
  readonly helloDomain: string | undefined;
  readonly certificateArn: string | undefined;
  /** The Route 53 zone holding the domains, if it is in the stage's account (checked by the preflight). */
  readonly hostedZoneId: string | undefined;
}

/** The `-c` overrides, field by field; `alarmTopicArn` stands in for an alarm email. */
export type SettingOverrides = Partial<DeploymentSettings> & { readonly alarmTopicArn?: string };

/** The settings a release stage cannot synthesize without, in the order they are named. */
const REQUIRED = [
  "account",
  "region",
  "alarmEmail",
  "searchDomain",
  "helloDomain",
  "certificateArn",
] as const;

const ACCOUNT_ID = /^\d{12}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
/** Loose on purpose (SNS checks the address); catches a pasted ARN. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** Lower-case DNS name of at least two labels (API Gateway refuses upper case). */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** A regional ACM certificate: `arn:<partition>:acm:<region>:<account>:certificate/<id>`. */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

/** The settings after overrides, with every given value well formed. */
export interface ResolvedSettings {
  readonly account: string | undefined;
  readonly region: string | undefined;
  readonly alarmEmail: string | undefined;
  readonly customDomains: CustomDomains | undefined;
  readonly hostedZoneId: string | undefined;
}

/** What is missing for a release stage, by name (empty when nothing is, or for dev). */
function missingSettings(release: boolean, merged: SettingOverrides): readonly string[] {
  if (!release) return [];
  return REQUIRED.filter(
    (name) => merged[name] === undefined && !(name === "alarmEmail" && merged.alarmTopicArn !== undefined),
  );
}

/** The -c overrides over the configured settings, checked; throws one SettingsError line. */
export function resolveSettings(
  stage: DeployedStage,
  release: boolean,
  configured: DeploymentSettings,
  overrides: SettingOverrides,
): ResolvedSettings {
  // An account written down is the stage's for good: `-c account` may only supply a missing one.
  if (configured.account !== undefined && overrides.account && overrides.account !== configured.account) {
    throw new SettingsError(
      `-c account=${overrides.account}, but stage ${stage} deploys only to account ${configured.account} (STAGE_SETTINGS in infra/config.ts)`,
    );
  }
  const merged: SettingOverrides = { ...configured };
  for (const [name, value] of Object.entries(overrides)) {
    if (value !== undefined && value !== "") Object.assign(merged, { [name]: value });
  }
  const missing = missingSettings(release, merged);
  if (missing.length > 0) {
    throw new SettingsError(
      `stage ${stage} needs ${missing.join(", ")}: set them in STAGE_SETTINGS.${stage} (infra/config.ts) or pass -c ${missing[0]}=… (docs/operations.md "First deploy")`,
    );
  }
  const { account, region, alarmEmail } = merged;
  if (account !== undefined && !ACCOUNT_ID.test(account)) {
    throw new SettingsError(`stage ${stage}: account "${account}" is not a 12-digit account id`);
  }
  if (region !== undefined && !REGION.test(region)) {
    throw new SettingsError(`stage ${stage}: region "${region}" is not an AWS region such as eu-west-1`);
  }
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    throw new SettingsError(`alarmEmail "${alarmEmail}" is not an email address`);
  }
  return {
    account,
    region,
    alarmEmail,
    customDomains: resolveCustomDomains(merged, region),
    hostedZoneId: merged.hostedZoneId,
  };
}

/**
 * The custom domains: all three settings or none, so a stage never half-moves to its stable URLs.
 * A certificate from another region than the stage's (when known) is refused: a regional API
 * can only use one from its own region.
 */
export function resolveCustomDomains(
  given: Partial<CustomDomains>,
  region: string | undefined,
): CustomDomains | undefined {
  const { searchDomain, helloDomain, certificateArn } = given;
  const settings = { searchDomain, helloDomain, certificateArn };
  const missing = Object.keys(settings).filter((key) => settings[key as keyof CustomDomains] === undefined);
  if (missing.length === 3) return undefined;
  if (searchDomain === undefined || helloDomain === undefined || certificateArn === undefined) {
    throw new SettingsError(
      `custom domains need searchDomain, helloDomain and certificateArn together: ${missing.join(" and ")} missing (-c ${missing[0]}=…)`,
    );
  }
  for (const [key, domain] of [
    ["searchDomain", searchDomain],
    ["helloDomain", helloDomain],
  ] as const) {
    if (!DOMAIN.test(domain)) throw new SettingsError(`${key} "${domain}" is not a lower-case domain name`);
  }
  if (searchDomain === helloDomain) {
    throw new SettingsError(
      `searchDomain and helloDomain are both "${searchDomain}": each API needs its own`,
    );
  }
  const certificateRegion = CERTIFICATE_ARN.exec(certificateArn)?.[1];
  if (certificateRegion === undefined) {
    throw new SettingsError(`certificateArn "${certificateArn}" is not an ACM certificate ARN`);
  }
  if (region !== undefined && certificateRegion !== region) {
    throw new SettingsError(
      `certificateArn is in ${certificateRegion}, but the stage's APIs are in ${region}: a regional API needs a certificate from its own region`,
    );
  }
  return { searchDomain, helloDomain, certificateArn };
}
