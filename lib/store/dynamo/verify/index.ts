/**
 * `npm run directory -- verify`: every invariant of the committed generation checked, the first
 * broken item named.
 */
export { problemText, verifyDirectory } from "./verify.js";
