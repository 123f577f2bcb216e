/**
 * The tests Stryker runs against each mutant (stryker.config.json): the unit project of
 * jest.config.js, whatever it holds (no engine, no java), so no list of files is kept by hand.
 * See docs/testing.md.
 */
import { unit } from "./jest.config.js";

export default unit;
