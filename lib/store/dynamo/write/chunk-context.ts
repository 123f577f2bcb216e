/** What a load's chunks and derivations work with: the load's generation, its table and journal. */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Generation, ReadAt } from "../model/index.js";
import type { DirectoryReads } from "../read/index.js";
import type { GramBlockSizes, OrderBlockSizes } from "../structures/index.js";
import type { Journal } from "./journal.js";

/**
 * What a load's chunks read and write with, at the load's generation (`gen`, with the generations
 * abandoned before it, whose versions it never sees), and the generation committed when it began.
 */
export interface ChunkContext extends Generation {
  readonly client: DynamoDBDocumentClient;
  readonly table: string;
  readonly reads: DirectoryReads;
  readonly journal: Journal;
  readonly committed: number;
  /** Blocks an order index item holds before it is stored in parts (counted-order.ts's default). */
  readonly indexPartBlocks?: number;
  /** Keys an order block holds (counted-order.ts's default). */
  readonly orderBlocks?: OrderBlockSizes;
  /** Postings a gram block counts (gram-blocks.ts's default). */
  readonly gramBlocks?: GramBlockSizes;
  /** A repair: every derived item was superseded, so each company's postings are posted whole. */
  readonly rebuild?: boolean;
}

/** A load reads its own generation, every write before it included. */
export const loadAt = (context: ChunkContext): ReadAt => ({
  gen: context.gen,
  ...(context.abandoned ? { abandoned: context.abandoned } : {}),
  consistent: true,
});
