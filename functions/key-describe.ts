/** GET /v1/key: what the calling key may do (any valid key; no operation needed). */
import { httpRoute } from "../lib/http/pipeline.js";
import { describeKey } from "../lib/keys/describe-key.js";

export const handler = httpRoute("key-describe", async ({ principal }) => describeKey(principal));
