/**
 * The Lambda bundles' stand-in for `@aws-sdk/credential-provider-node` (aliased in
 * infra/bundling.ts). On Lambda the execution role's credentials are in the environment, and
 * the SDK's default chain returns them from its first link, `fromEnv`. Its other links (SSO,
 * ini files, credential processes, web identity, container and instance metadata) never run
 * there, yet bundled they cost about 140 KB (the STS and SSO clients among them) and the Node
 * modules they import at the top of the bundle, at every cold start.
 */
import { type FromEnvInit, fromEnv } from "@aws-sdk/credential-provider-env";

/** The one name the SDK's clients import from the package (their runtimeConfig's default chain). */
export const defaultProvider = (init: FromEnvInit = {}): ReturnType<typeof fromEnv> => fromEnv(init);
