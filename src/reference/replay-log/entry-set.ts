// The entries of one segment of the replay log (replay-log.ts), in memory: a set of 16-byte
// entries (replayEntry: a window's end, then 8 bytes of a digest) kept as four 32-bit words per
// slot, open addressing, linear probing: 16 bytes a slot and no object per entry, the slots
// doubled when half are full, so 32 to 64 bytes an entry, which matters when a window holds
// millions. Nothing is ever removed: a segment's entries all leave together (dropped whole).

/** Words of an entry: its window's end (high, low), then its digest (two words). */
const WORDS = 4;
const FIRST_SLOTS = 1 << 10;

export class EntrySet {
  #slots = new Uint32Array(FIRST_SLOTS * WORDS);
  #mask = FIRST_SLOTS - 1;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Bytes this set holds: its slots. */
  get bytes(): number {
    return this.#slots.byteLength;
  }

  /**
   * Adds the entry at `b[at..at+16)`: true when it was not there yet. An entry of all zeros (a
   * window that ended in 1970) marks an empty slot and is refused.
   */
  add(b: Uint8Array, at: number): boolean {
    const e0 = word(b, at);
    const e1 = word(b, at + 4);
    const e2 = word(b, at + 8);
    const e3 = word(b, at + 12);
    if ((e0 | e1 | e2 | e3) === 0) throw new RangeError('an all-zero replay entry');
    if (!this.#insert(e0, e1, e2, e3)) return false;
    if (++this.#size * 2 > this.#mask + 1) this.#grow();
    return true;
  }

  /** Puts the entry in its slot: false when it is there already. */
  #insert(e0: number, e1: number, e2: number, e3: number): boolean {
    const slots = this.#slots;
    // The digest's words are uniformly random: its low one chooses the slot.
    for (let i = e3 & this.#mask; ; i = (i + 1) & this.#mask) {
      const s = i * WORDS;
      if ((slots[s]! | slots[s + 1]! | slots[s + 2]! | slots[s + 3]!) === 0) {
        slots[s] = e0;
        slots[s + 1] = e1;
        slots[s + 2] = e2;
        slots[s + 3] = e3;
        return true;
      }
      if (slots[s] === e0 && slots[s + 1] === e1 && slots[s + 2] === e2 && slots[s + 3] === e3)
        return false;
    }
  }

  /** Twice the slots, every entry put again. */
  #grow(): void {
    const old = this.#slots;
    const count = (this.#mask + 1) * 2;
    this.#slots = new Uint32Array(count * WORDS);
    this.#mask = count - 1;
    for (let s = 0; s < old.length; s += WORDS)
      if ((old[s]! | old[s + 1]! | old[s + 2]! | old[s + 3]!) !== 0)
        this.#insert(old[s]!, old[s + 1]!, old[s + 2]!, old[s + 3]!);
  }
}

/** The big-endian 32-bit word at `b[at..at+4)`, as an unsigned number. */
const word = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
