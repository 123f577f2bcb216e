/**
 * The usage plans side of a deployed stage, as the keys CLI needs it: API Gateway API keys (whose
 * values are internal, never a partner's key) and their membership in the throttle tiers' usage
 * plans. lib/cli/usage-keys.ts implements it with API Gateway; tests use an in-memory fake.
 *
 * Every method is idempotent, so a step that failed can simply run again: deleting or disabling a
 * key that is gone, adding a key to a plan it is in, or removing it from one it is not in, succeeds.
 */

/** An API Gateway API key of this stage. */
export interface GatewayKey {
  readonly id: string;
  /** `<stage>-<keyId>`: how a key with no table record, or a pending record, is matched. */
  readonly name: string;
  readonly enabled: boolean;
}

export interface UsagePlanGateway {
  /** The name an API key of partner key `keyId` gets (unique per stage). */
  keyName(keyId: string): string;
  /** Creates an enabled API key holding `value`; returns its id. */
  createKey(input: { name: string; description: string; value: string }): Promise<string>;
  disableKey(id: string): Promise<void>;
  enableKey(id: string): Promise<void>;
  /** Deletes the API key (which also takes it out of every usage plan). */
  deleteKey(id: string): Promise<void>;
  /** This stage's API keys (those named `<stage>-…`). */
  listKeys(): Promise<GatewayKey[]>;
  /**
   * Adds the key to the tier's usage plan. The plans share their API stages, and API Gateway
   * refuses a key in two plans on one API stage: take it out of its old plan first.
   */
  addToPlan(tier: string, id: string): Promise<void>;
  removeFromPlan(tier: string, id: string): Promise<void>;
  /** Ids of the API keys in the tier's usage plan. */
  planKeys(tier: string): Promise<string[]>;
}
