/**
 * The Lambda bundles' stand-in for `@aws-sdk/credential-provider-node` (aliased in
 * infra/bundling.ts). On Lambda the execution role's credentials are in the environment, and
 * the SDK's default chain returns them from its first link, `fromEnv`. Its other links (SSO,
 * ini files, credential processes, web identity, container and instance metadata) never run
 * there, yet bundled they cost about 110 KB (the STS and SSO clients among them) and the Node
 * modules they import at the top of the bundle, at every cold start.
 */
import { type FromEnvInit, fromEnv } from "@aws-sdk/credential-provider-env";

type Credentials = Awaited<ReturnType<ReturnType<typeof fromEnv>>>;

export const defaultProvider = (init: FromEnvInit = {}): ReturnType<typeof fromEnv> => fromEnv(init);

/** As the default chain's: credentials with an expiry are refreshed 5 minutes before it. */
export const credentialsWillNeedRefresh = (credentials?: Credentials): boolean =>
  credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials?: Credentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
