/**
 * Partner API keys: `pd_<env>_<body><check>`. `<body>` is 32 random base62 characters (over 190
 * bits); `<check>` is the CRC32 of `pd_<env>_<body>` in base62, left-padded with `0` to 6
 * characters. The checksum lets a mistyped key be refused before any lookup and lets secret
 * scanners recognise a leaked one. Only a SHA-256 hash of a key is ever stored.
 */
import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_ENVIRONMENTS = ["live", "test"] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;

// The key format and the Authorization header are written once, as regex source text, and
// every pattern below is built from these pieces. Only plain constructs (character classes,
// counts, non-capturing groups, anchors) so the same text is also a valid Java regex: API Gateway
// checks the header against AUTHORIZATION_HEADER_PATTERN before it invokes the authorizer.
const KEY_CHAR = "[0-9A-Za-z]";
const KEY_PREFIX = `pd_(?:${KEY_ENVIRONMENTS.join("|")})_`;
/** `Bearer`, any case (RFC 9110 schemes are case-insensitive), then one or more spaces. */
const BEARER_SCHEME = "[Bb][Ee][Aa][Rr][Ee][Rr] +";

const KEY_PATTERN = new RegExp(
  `^pd_(${KEY_ENVIRONMENTS.join("|")})_(${KEY_CHAR}{${BODY_LENGTH}})(${KEY_CHAR}{${CHECK_LENGTH}})$`,
);
const BEARER_PATTERN = new RegExp(`^${BEARER_SCHEME}(\\S+) *$`);

/**
 * An `Authorization` header value that may carry a key: every header whose key the authorizer
 * could accept matches (the checksum is left to the authorizer), junk does not. The TOKEN
 * authorizer's `identityValidationExpression`: API Gateway answers 401 to anything else without
 * invoking the authorizer.
 */
export const AUTHORIZATION_HEADER_PATTERN = `^${BEARER_SCHEME}${KEY_PREFIX}${KEY_CHAR}{${BODY_LENGTH + CHECK_LENGTH}} *$`;

function toBase62(value: number): string {
  let rest = value;
  let out = "";
  do {
    out = BASE62_ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out;
}

/** The 6-character check of the key prefix `pd_<env>_<body>`. */
function keyChecksum(prefix: string): string {
  return toBase62(crc32(Buffer.from(prefix, "ascii"))).padStart(CHECK_LENGTH, "0");
}

/** Uniform base62 characters: bytes of 248 or more are rejected so `% 62` has no bias. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62_ALPHABET.charAt(byte % 62);
    }
  }
  return out;
}

export function generateApiKey(environment: KeyEnvironment): string {
  const prefix = `pd_${environment}_${randomBase62(BODY_LENGTH)}`;
  return prefix + keyChecksum(prefix);
}

/** True when the text has the key format and its checksum holds. Makes no lookup. */
export function isWellFormedApiKey(text: string): boolean {
  const match = KEY_PATTERN.exec(text);
  if (!match) return false;
  const [, environment, body, check] = match;
  return keyChecksum(`pd_${environment}_${body}`) === check;
}

/**
 * The one rule on key environments: a test key (`pd_test_…`) never opens prod. The authorizer
 * applies it on AWS and in `npm start` with STAGE=prod alike (both run functions/authorizer.ts,
 * with the stage of the request's method ARN), and the keys CLI will not issue one for prod.
 */
export function keyEnvironmentAllowed(environment: KeyEnvironment, stage: string | undefined): boolean {
  return !(stage === "prod" && environment === "test");
}

/** The environment of a well-formed key. */
export function keyEnvironmentOf(key: string): KeyEnvironment | undefined {
  return KEY_PATTERN.exec(key)?.[1] as KeyEnvironment | undefined;
}

/** What the keys table stores instead of the key: its SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The key in an `Authorization: Bearer <key>` header value, or undefined when the header is not that. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = BEARER_PATTERN.exec(header);
  return match?.[1];
}

const KEY_LIKE = /pd_(?:live|test)_[0-9A-Za-z]*/g;
/** A run of base62 characters long enough to hold a key's body and check. */
const KEY_SIZED_RUN = new RegExp(`${KEY_CHAR}{${BODY_LENGTH + CHECK_LENGTH},}`, "g");
const REDACTED = "…[redacted]";

/** True when `check` is the checksum of `body` under some environment's prefix. */
function isKeyBodyAndCheck(body: string, check: string): boolean {
  return KEY_ENVIRONMENTS.some((environment) => keyChecksum(`pd_${environment}_${body}`) === check);
}

/** A base62 run with every 38-character window that is a key's body and valid check replaced. */
function redactKeysInRun(run: string): string {
  const size = BODY_LENGTH + CHECK_LENGTH;
  let out = "";
  let kept = 0;
  for (let at = 0; at + size <= run.length; ) {
    if (isKeyBodyAndCheck(run.slice(at, at + BODY_LENGTH), run.slice(at + BODY_LENGTH, at + size))) {
      out += run.slice(kept, at) + REDACTED;
      at += size;
      kept = at;
    } else at += 1;
  }
  return out + run.slice(kept);
}

/**
 * Text with anything shaped like a partner key replaced: for messages that quote what a caller
 * or a file supplied (a key pasted where a field name belongs must not be echoed or logged).
 * Two rules: `pd_live_`/`pd_test_` and any base62 after it; and, whatever comes before it (an
 * altered prefix such as `PD_TEST_` or `pd-test-`, none at all, or other characters), any 32
 * base62 characters followed by their valid 6-character checksum.
 */
export function redactApiKeys(text: string): string {
  return text.replace(KEY_LIKE, `pd_${REDACTED}`).replace(KEY_SIZED_RUN, redactKeysInRun);
}

/**
 * The most a cut of caller text may drop to leave no part of a key readable: a key split by the
 * cut has fewer than its 38 characters before it, all base62.
 */
export const KEY_TEXT_SPLIT_CHARS = BODY_LENGTH + CHECK_LENGTH - 1;

/** A key id: safe to log and to show, names the key without revealing it. */
export function generateKeyId(): string {
  return `key_${randomBase62(16)}`;
}

export { BODY_LENGTH as API_KEY_BODY_LENGTH };
