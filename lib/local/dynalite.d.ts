/** dynalite ships no types; this declares only what lib/local uses. */
declare module "dynalite" {
  import type { Server } from "node:http";

  interface DynaliteOptions {
    /** How long a table stays CREATING / DELETING / UPDATING (default 500 ms). */
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    /** LevelDB folder; in memory when absent. */
    path?: string;
    verbose?: boolean;
    debug?: boolean;
  }

  function dynalite(options?: DynaliteOptions): Server;
  export = dynalite;
}
