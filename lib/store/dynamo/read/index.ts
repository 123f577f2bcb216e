/**
 * Reads at one generation, and the searches answered from them: reads, windows, the reader, its
 * answer cache, the operator's inspection.
 */
export { directoryInspection, locationAt } from "./inspect.js";
export type { StoredOrderIndex } from "./order-reads.js";
export { dynamoDirectoryReader, type ReaderOptions } from "./reader.js";
export { type DirectoryReads, directoryReads } from "./reads.js";
