/** The partner client, packaged by `npm run build:client` (docs/partners.md#typed-client). */
export {
  type CallOptions,
  PartnerDirectoryClient,
  type PartnerDirectoryClientOptions,
  type ResponseInfo,
  type RetryInfo,
} from "./client.js";
export type {
  Employee,
  EmployeesSearchRequest,
  EmployeesSearchResponse,
  Greeting,
  KeyDescription,
  Pagination,
  Person,
  PersonsSearchRequest,
  PersonsSearchResponse,
} from "./contract.js";
export { type ClientErrorCode, PartnerDirectoryError } from "./errors.js";
export { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.js";
