/**
 * The derived structures (pure): counted orders, name postings and their census, scope postings,
 * the scope registry and where scopes live.
 */
export { type BlockSizes, checkedBlockSizes } from "./block-sizes.js";
export {
  blockOf,
  blockStarts,
  blocksOfPositions,
  indexParts,
  type OrderBlockSizes,
  type OrderPlan,
  planOrder,
  planOrderChanges,
  rankIn,
} from "./counted-order.js";
export {
  blocksToSplit,
  blocksTotal,
  companionCounts,
  companionsOf,
  GRAM_BLOCK_ENTRIES,
  GramBlockCutter,
  type GramBlockIndex,
  type GramBlockRef,
  type GramBlockSizes,
  GramDeltas,
  gramBlockItem,
  gramBlockKey,
  type Holder,
  isCompanionGram,
  type KeyRange,
  keysAfter,
  planGramBlocks,
  rangeSegments,
  windowSpans,
} from "./gram-blocks.js";
export {
  censusItems,
  censusKeys,
  filterGrams,
  type Gram,
  GramCensus,
  gramId,
  gramsOfPair,
  gramsOfPairs,
  type StoredGramCensus,
} from "./name-grams.js";
export {
  type PostingChange,
  type PostingPage,
  PostingPageCutter,
  pageRoom,
  planPageChanges,
  postingPageItem,
} from "./posting-pages.js";
export { houseScopes } from "./scope-homes.js";
export {
  markerAfter,
  type PostedScope,
  repostPerson,
  rewritePersonPostings,
  type ScopeWork,
  scopeCensusWrites,
  scopeGramsOf,
  scopeNamePairs,
  scopePostingGen,
  scopePostingItems,
  scopeWork,
} from "./scope-postings.js";
export {
  type RegisteredScope,
  readScopes,
  registryItem,
  registryKey,
  ScopeHomes,
  scopeItems,
  scopesOf,
} from "./scope-registry.js";
