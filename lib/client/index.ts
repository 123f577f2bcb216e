/** The partner client: `import { PartnerDirectoryClient } from "…/lib/client/index.js"`. See docs/partners.md#typed-client. */
export type {
  ApiEmployee as Employee,
  ApiPagination as Pagination,
  ApiPerson as Person,
} from "../directory/api-schema.js";
export {
  type CallOptions,
  type EmployeesSearchRequest,
  type EmployeesSearchResponse,
  type Greeting,
  PartnerDirectoryClient,
  type PartnerDirectoryClientOptions,
  type PersonsSearchRequest,
  type PersonsSearchResponse,
  type ResponseInfo,
  type RetryInfo,
} from "./client.js";
export { type ClientErrorCode, PartnerDirectoryError } from "./errors.js";
export { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.js";
