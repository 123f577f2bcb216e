/**
 * `npm install` and `npm ci` (the `postinstall` script) fetch DynamoDB Local's jar once, so that
 * `npm test` and `npm start` never need the network. A failed fetch warns and leaves the install
 * alone: dynalite needs no jar, and the next `npm install` or `DYNAMODB_ENGINE=ddblocal npm start`
 * tries again.
 */
import { ensureDynamoDbLocalJar } from "../local/ddblocal-jar.js";
import { say } from "./terminal-text.js";

try {
  await ensureDynamoDbLocalJar();
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  say(`warning: DynamoDB Local was not fetched (${reason}); tests on it will fail`);
}
