/**
 * The one rule for a well-formed company id. The greeting route answers `invalid_company_id` for a
 * path id that breaks it, and the data loader refuses a record whose `companyId` breaks it, so a
 * company that can be loaded can always be greeted (and the other way round).
 */

/** 1 to 128 characters, each a letter, digit, `-`, `_` or `.` (ASCII only). */
export const COMPANY_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export function isCompanyId(value: string): boolean {
  return COMPANY_ID_PATTERN.test(value);
}
