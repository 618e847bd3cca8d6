/** The last `maxChars` characters of a text that arrives in pieces, in memory that stays within about twice that. */
export class TailText {
  #parts: string[] = [];
  #length = 0;

  constructor(private readonly maxChars: number) {}

  append(text: string): void {
    this.#parts.push(text);
    this.#length += text.length;
    // Trimmed when twice the limit, not on every append: a join per delta would copy the tail each time.
    if (this.#length > 2 * this.maxChars) this.#trim();
  }

  toString(): string {
    this.#trim();
    return this.#parts.join("");
  }

  #trim(): void {
    if (this.#length <= this.maxChars) return;
    const kept = this.#parts.join("").slice(-this.maxChars);
    this.#parts = [kept];
    this.#length = kept.length;
  }
}
