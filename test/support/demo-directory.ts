/** The demo keys and data `npm start` serves, for tests that call the local service as a partner. */
import { readFileSync } from "node:fs";
import { parseDataFile } from "../../lib/directory/source.js";
import { DEMO_DATA_FILE, DEMO_KEYS_FILE } from "../../lib/local/config.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";

export const demoKeys = parseKeysFile(readFileSync(DEMO_KEYS_FILE, "utf8"), "demo keys");
export const demoData = parseDataFile(readFileSync(DEMO_DATA_FILE, "utf8"));

/** The plain key of the demo partner whose name starts with `partnerPrefix`. */
export function demoKey(partnerPrefix: string): string {
  const record = demoKeys.records.find((candidate) => candidate.partner.startsWith(partnerPrefix));
  const key = record && demoKeys.plainKeys.get(record.keyId);
  if (!key) throw new Error(`no demo key for ${partnerPrefix}`);
  return key;
}
