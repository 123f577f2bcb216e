/**
 * The directory as the use cases see it: questions in the domain's terms, answered with domain
 * records and totals. How the answers are stored, encoded and read is each implementation's own
 * business: `lib/store/dynamo` (DynamoDB) and `lib/store/memory` (the same rules in memory, for
 * unit tests and as the model the DynamoDB store is checked against).
 */
import type { SourceEmployee, SourcePerson } from "../directory/source.js";
import type { CreatedRange, EmploymentFilter } from "../search/matching.js";

export type { CreatedRange, EmploymentFilter };

/** "Employee records of company C, created in R, matching F, page P." */
export interface EmployeesQuery {
  /** `filter.companies` holds exactly the one company searched. */
  readonly filter: EmploymentFilter;
  readonly personId?: string | undefined;
  readonly created: CreatedRange;
  readonly offset: number;
  readonly limit: number;
}

/** "Persons with one employment in scope matching F, created in R, page P, with what K may read." */
export interface PersonsQuery {
  /** `filter.companies`: the companies the matching employment must belong to. */
  readonly filter: EmploymentFilter;
  /** Companies whose employments are returned with each person (never fewer than the scope). */
  readonly readable: ReadonlySet<string>;
  readonly personId?: string | undefined;
  /** On the person's createdAt. */
  readonly created: CreatedRange;
  readonly offset: number;
  readonly limit: number;
}

/** One page of a sorted answer, and how many items the whole answer holds. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/** A person with their employments in the readable companies, sorted by createdAt, then id. */
export interface PersonWithEmployments {
  readonly person: SourcePerson;
  readonly employments: readonly SourceEmployee[];
}

/** Each answer comes from one state of the directory: its total and its page always agree. */
export interface DirectoryReader {
  employees(query: EmployeesQuery): Promise<Page<SourceEmployee>>;
  persons(query: PersonsQuery): Promise<Page<PersonWithEmployments>>;
}
