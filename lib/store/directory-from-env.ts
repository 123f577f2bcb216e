/** The directory a Lambda reads: shared client, table name from the environment. */

import { dynamoDirectoryReader } from "./dynamo/reader.js";
import { sharedDocumentClient, tableNameFromEnv } from "./dynamo-client.js";
import { DIRECTORY_TABLE } from "./tables.js";

export const directoryFromEnv = () =>
  dynamoDirectoryReader(sharedDocumentClient(), tableNameFromEnv(DIRECTORY_TABLE));
