/** jest globalTeardown; loaded like global-setup.ts (see there). */
import { tsImport } from "tsx/esm/api";

type Lifecycle = typeof import("./ddblocal-lifecycle.js");

export default async function globalTeardown(): Promise<void> {
  const lifecycle: Lifecycle = await tsImport("./ddblocal-lifecycle.ts", import.meta.url);
  await lifecycle.tearDownDynamoDbLocal();
}
