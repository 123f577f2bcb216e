/**
 * The in-memory store (lib/store/memory) for unit tests of the use cases: a directory from a data
 * file, and a reader that records each question a use case asks before answering it.
 */
import type { DataFile } from "../../lib/directory/source.js";
import {
  type DirectoryState,
  type MemoryDirectory,
  memoryDirectory,
} from "../../lib/store/memory/memory-directory.js";
import type { DirectoryReader, EmployeesQuery, PersonsQuery } from "../../lib/store/port.js";

/** The state holding exactly the file's persons and records. */
export function stateOf(data: DataFile): DirectoryState {
  return {
    persons: new Map(data.persons.map((person) => [person.id, person])),
    employees: new Map(data.employees.map((record) => [record.id, record])),
  };
}

export const memoryWith = (data: DataFile): MemoryDirectory => memoryDirectory(stateOf(data));

export interface RecordingReader extends DirectoryReader {
  readonly employeesQueries: EmployeesQuery[];
  readonly personsQueries: PersonsQuery[];
}

/** `reader`, and every query put to it, in order. */
export function recording(reader: DirectoryReader): RecordingReader {
  const employeesQueries: EmployeesQuery[] = [];
  const personsQueries: PersonsQuery[] = [];
  return {
    employeesQueries,
    personsQueries,
    employees: (query) => {
      employeesQueries.push(query);
      return reader.employees(query);
    },
    persons: (query) => {
      personsQueries.push(query);
      return reader.persons(query);
    },
  };
}
