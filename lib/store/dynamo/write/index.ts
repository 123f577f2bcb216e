/**
 * Loads: the load session (lease, chunks, journal, flip, clean-up), the chunk plan, the
 * derivations before the flip, and repair's rebuild.
 */
export { dynamoDirectoryWriter, repairDerived, type WriterOptions } from "./load-session.js";
