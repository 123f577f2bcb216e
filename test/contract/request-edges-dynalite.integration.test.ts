import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { startDynalite } from "../../lib/local/engines.js";
import { requestEdgesSuite } from "./request-edges-suite.js";

requestEdgesSuite("dynalite", async () => ({
  engine: await startDynalite(),
  tableNames: { ...LOCAL_TABLE_NAMES },
}));
