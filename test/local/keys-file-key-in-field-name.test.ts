/**
 * A key written where a field NAME belongs is not printed in the KeysFileError message, as it once
 * was through the `unknown field "…"` issue. decisions.md: the key never appears in an exception
 * message.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";

const KEY = generateApiKey("test");
const entry = { key: KEY, partner: "Acme", operations: ["companies.hello"], companies: ["acme"] };

it.each([
  ["a file keyed by the key", { [KEY]: entry }],
  ["an entry with the key as a field name", { keys: [{ ...entry, [KEY]: true }] }],
])("never prints the key: %s", (_, file) => {
  let message = "";
  try {
    parseKeysFile(JSON.stringify(file), "keys.json");
  } catch (error) {
    message = String(error);
  }
  expect(message).toMatch(/keys file keys\.json/);
  expect(message).not.toContain(KEY.slice(8, 40));
});
