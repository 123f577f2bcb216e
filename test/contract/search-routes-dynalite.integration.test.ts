import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { startDynalite } from "../../lib/local/engines.js";
import { searchRoutesSuite } from "./search-routes-suite.js";

searchRoutesSuite("dynalite", async () => ({
  engine: await startDynalite(),
  tableNames: { ...LOCAL_TABLE_NAMES },
}));
