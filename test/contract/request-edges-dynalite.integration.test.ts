import { startDynalite } from "../../lib/local/engines.js";
import { requestEdgesSuite } from "./request-edges-suite.js";

// Not LOCAL_TABLE_NAMES: importing lib/local/service.js here would make the logger before the
// suite sets its level.
requestEdgesSuite("dynalite", async () => ({
  engine: await startDynalite(),
  tableNames: { directory: "directory", keys: "keys" },
}));
