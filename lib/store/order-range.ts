/** Created ranges as order-key bounds: keys at or after `from`, and before `before`. */
import type { CreatedRange } from "../search/matching.js";
import { instantOrderPrefix, type OrderKey } from "./binary-keys.js";

export function orderRange(range: CreatedRange): { from?: OrderKey; before?: OrderKey } {
  return {
    ...(range.from === undefined ? {} : { from: instantOrderPrefix(range.from) }),
    ...(range.before === undefined ? {} : { before: instantOrderPrefix(range.before) }),
  };
}

/** A range that holds no key: it starts at or after its end. */
export const emptyOrderRange = (range: { from?: OrderKey; before?: OrderKey }): boolean =>
  range.from !== undefined && range.before !== undefined && range.from >= range.before;

export function inOrderRange(order: OrderKey, range: { from?: OrderKey; before?: OrderKey }): boolean {
  return (
    (range.from === undefined || order >= range.from) && (range.before === undefined || order < range.before)
  );
}
