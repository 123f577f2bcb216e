/** How full the blocks of a counted order or of a gram's postings are kept (pure). */

/** Entries a block holds: written `target` to a block, split above `max`, merged below `min`. */
export interface BlockSizes {
  readonly target: number;
  readonly max: number;
  readonly min: number;
}

/**
 * `sizes` if blocks can be cut by them: whole numbers 1 <= min <= target <= max. Others would cut
 * blocks of no entries, for ever, or never split one; `what` names the blocks in the error.
 */
export function checkedBlockSizes<T extends BlockSizes>(what: string, sizes: T): T {
  const { min, target, max } = sizes;
  if (![min, target, max].every(Number.isInteger) || !(1 <= min && min <= target && target <= max))
    throw new Error(
      `${what} block sizes need whole numbers 1 <= min <= target <= max: ${min}, ${target}, ${max}`,
    );
  return sizes;
}
