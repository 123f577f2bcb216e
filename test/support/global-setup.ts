/**
 * jest globalSetup. Jest loads this file with Node's own type stripping, which cannot resolve the
 * project's `.js` specifiers to `.ts` files, so the real work is imported through tsx.
 */
import { tsImport } from "tsx/esm/api";

type Lifecycle = typeof import("./ddblocal-lifecycle.js");

export default async function globalSetup(): Promise<void> {
  const lifecycle: Lifecycle = await tsImport("./ddblocal-lifecycle.ts", import.meta.url);
  await lifecycle.setUpDynamoDbLocal();
}
