/** The directory repository a Lambda uses: shared client, table name from the environment. */
import { directoryRepository } from "./directory-repository.js";
import { sharedDocumentClient, tableNameFromEnv } from "./dynamo-client.js";
import { DIRECTORY_TABLE } from "./tables.js";

export const directoryFromEnv = () =>
  directoryRepository(sharedDocumentClient(), tableNameFromEnv(DIRECTORY_TABLE));
