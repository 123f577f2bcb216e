/** The partner client: `import { PartnerDirectoryClient } from "…/lib/client/index.js"`. See docs/partners.md#typed-client. */
export type {
  ApiEmployee as Employee,
  ApiEmployeesSearchResponse as EmployeesSearchResponse,
  ApiPagination as Pagination,
  ApiPerson as Person,
  ApiPersonsSearchResponse as PersonsSearchResponse,
} from "../directory/api-schema.js";
export type { Greeting } from "../greeting/greet-company.js";
export {
  type CallOptions,
  type EmployeesSearchRequest,
  PartnerDirectoryClient,
  type PartnerDirectoryClientOptions,
  type PersonsSearchRequest,
  type ResponseInfo,
  type RetryInfo,
} from "./client.js";
export { type ClientErrorCode, PartnerDirectoryError } from "./errors.js";
export { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.js";
