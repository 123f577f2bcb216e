/**
 * The fast unit suites that cover the code under mutation (stryker.config.json): no DynamoDB,
 * no servers, so Stryker can run them thousands of times. See docs/testing.md.
 */
import base from "./jest.config.js";

export default {
  ...base,
  globalSetup: undefined,
  globalTeardown: undefined,
  testMatch: [
    "<rootDir>/test/auth/**/*.test.ts",
    "<rootDir>/test/keys/api-key.test.ts",
    "<rootDir>/test/http/validate-body.test.ts",
    "<rootDir>/test/http/authorize-operation.test.ts",
    "<rootDir>/test/search/**/*.test.ts",
    "<rootDir>/test/directory/name.test.ts",
    "<rootDir>/test/directory/phone.test.ts",
  ],
};
