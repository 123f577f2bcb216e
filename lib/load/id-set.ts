/**
 * A set of record ids (uuids) held as their 16 bytes in one open-addressed table: 17 bytes a slot,
 * 24 to 49 bytes an id as the table fills (38 for the 1.86 million ids of a million-record file),
 * against about 130 for a Map of strings. A load keeps every id of its file (duplicates are
 * refused, a snapshot deletes the stored ids it lacks); a 10-million-record file holds about 20
 * million, and an ingest carries them between its steps as bytes (`toBytes`, `fromBytes`).
 */

const WORDS = 4; // 4 × 32 bits: one uuid
const MAX_LOAD = 0.7;

/** The uuid's 4 words; `id` is 32 hex digits with or without dashes, any case. */
function wordsOf(id: string, into: Uint32Array): void {
  const hex = id.replaceAll("-", "");
  if (hex.length !== 32 || !/^[0-9a-fA-F]+$/.test(hex)) throw new Error(`not a uuid: ${id.slice(0, 40)}`);
  for (let i = 0; i < WORDS; i += 1) into[i] = Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16);
}

/** Mixes the words into a slot number (uuids are not all random: v1 and v7 share long prefixes). */
function hashOf(w: Uint32Array): number {
  let h = Math.imul((w[0] ?? 0) ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (w[1] ?? 0) ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ (w[2] ?? 0) ^ (h >>> 13), 0x27d4eb2f);
  h = Math.imul(h ^ (w[3] ?? 0) ^ (h >>> 16), 0x165667b1);
  return (h ^ (h >>> 15)) >>> 0;
}

export class IdSet {
  private slots: Uint32Array;
  private used: Uint8Array;
  private count = 0;
  private readonly probe = new Uint32Array(WORDS);

  constructor(capacity = 1024) {
    let size = 1024;
    while (size * MAX_LOAD < capacity) size *= 2;
    this.slots = new Uint32Array(size * WORDS);
    this.used = new Uint8Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Adds the id; false when it was there already. */
  add(id: string): boolean {
    wordsOf(id, this.probe);
    return this.insert(this.probe);
  }

  has(id: string): boolean {
    wordsOf(id, this.probe);
    return this.slotOf(this.probe) >= 0;
  }

  /** The ids as 16 bytes each, in no particular order. */
  toBytes(): Uint8Array {
    const out = new Uint32Array(this.count * WORDS);
    let n = 0;
    for (let slot = 0; slot < this.used.length; slot += 1) {
      if (!this.used[slot]) continue;
      out.set(this.slots.subarray(slot * WORDS, slot * WORDS + WORDS), n * WORDS);
      n += 1;
    }
    return new Uint8Array(out.buffer);
  }

  static fromBytes(bytes: Uint8Array): IdSet {
    if (bytes.byteLength % (WORDS * 4) !== 0) throw new Error("an id set's bytes come 16 to an id");
    // Copied: the input may not be aligned for 32-bit words. Not with `slice()`: a Buffer's (a
    // file's bytes) shares its memory, and `.buffer` would be the whole pool it lives in.
    const words = new Uint32Array(new Uint8Array(bytes).buffer);
    const set = new IdSet(words.length / WORDS);
    for (let i = 0; i < words.length; i += WORDS) set.insert(words.subarray(i, i + WORDS));
    return set;
  }

  /** The slot holding `w`, or -(the free slot where it would go) - 1. */
  private slotOf(w: Uint32Array): number {
    const mask = this.used.length - 1;
    for (let slot = hashOf(w) & mask; ; slot = (slot + 1) & mask) {
      if (!this.used[slot]) return -slot - 1;
      const at = slot * WORDS;
      if (
        this.slots[at] === w[0] &&
        this.slots[at + 1] === w[1] &&
        this.slots[at + 2] === w[2] &&
        this.slots[at + 3] === w[3]
      )
        return slot;
    }
  }

  private insert(w: Uint32Array): boolean {
    const found = this.slotOf(w);
    if (found >= 0) return false;
    const slot = -found - 1;
    this.slots.set(w, slot * WORDS);
    this.used[slot] = 1;
    this.count += 1;
    if (this.count > this.used.length * MAX_LOAD) this.grow();
    return true;
  }

  private grow(): void {
    const { slots, used } = this;
    this.slots = new Uint32Array(slots.length * 2);
    this.used = new Uint8Array(used.length * 2);
    this.count = 0;
    for (let slot = 0; slot < used.length; slot += 1)
      if (used[slot]) this.insert(slots.subarray(slot * WORDS, slot * WORDS + WORDS));
  }
}
