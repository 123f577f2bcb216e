/**
 * The ids of a load file: persons and employee records apart (a uuid may name one of each). A data
 * file may not hold an id twice, and a snapshot deletes every stored id its file lacks.
 */
import type { Change } from "../store/port.js";
import { IdSet } from "./id-set.js";

/** The id a change is about. */
export const recordId = (change: Change): string =>
  change.op === "delete"
    ? "person" in change
      ? change.person
      : change.employee
    : "person" in change
      ? change.person.id
      : change.employee.id;

const HEADER_BYTES = 8;

export class LoadIds {
  private readonly persons: IdSet;
  private readonly employees: IdSet;

  constructor(persons = new IdSet(), employees = new IdSet()) {
    this.persons = persons;
    this.employees = employees;
  }

  /** Adds the change's id; false when the file named it already. */
  add(change: Change): boolean {
    return ("person" in change ? this.persons : this.employees).add(recordId(change));
  }

  holds(kind: "person" | "employee", id: string): boolean {
    return (kind === "person" ? this.persons : this.employees).has(id);
  }

  get size(): number {
    return this.persons.size + this.employees.size;
  }

  /** Both sets as bytes: the persons' length (8 bytes), the persons' ids, the records' ids. */
  toBytes(): Uint8Array {
    const persons = this.persons.toBytes();
    const employees = this.employees.toBytes();
    const out = new Uint8Array(HEADER_BYTES + persons.length + employees.length);
    new DataView(out.buffer).setBigUint64(0, BigInt(persons.length));
    out.set(persons, HEADER_BYTES);
    out.set(employees, HEADER_BYTES + persons.length);
    return out;
  }

  static fromBytes(bytes: Uint8Array): LoadIds {
    if (bytes.length < HEADER_BYTES) throw new Error("a load's ids are at least 8 bytes long");
    const personsLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0));
    const end = HEADER_BYTES + personsLength;
    if (end > bytes.length) throw new Error("a load's ids are cut short");
    return new LoadIds(
      IdSet.fromBytes(bytes.subarray(HEADER_BYTES, end)),
      IdSet.fromBytes(bytes.subarray(end)),
    );
  }
}
