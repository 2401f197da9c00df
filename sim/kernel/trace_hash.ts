/**
 * A cheap rolling hash over the executed events: two 32-bit FNV-1a style lanes mixed with
 * `Math.imul`, fed `(timeUs, seq, eventKind, nodeIndex)` per event. It is not cryptographic; it
 * only has to change when the schedule changes, so two runs that agree on it ran the same events
 * in the same order. Style rule 9.
 */

const FNV_PRIME = 0x0100_0193;

/** A rolling 64-bit (two-lane) hash of integers. */
export class TraceHash {
  private laneA = 0x811c_9dc5 | 0;
  private laneB = 0x2545_f491 | 0;

  /** Mixes one integer (a safe integer up to 2^53) into the hash. */
  mix(value: number): void {
    const low = value | 0;
    const high = Math.floor(value / 0x1_0000_0000) | 0;
    this.laneA = Math.imul(this.laneA ^ low, FNV_PRIME);
    this.laneA = Math.imul(this.laneA ^ high, FNV_PRIME);
    this.laneB = Math.imul(this.laneB ^ (low + 0x9e37_79b9), FNV_PRIME) ^ (this.laneA >>> 15);
    this.laneB = Math.imul(this.laneB ^ high, FNV_PRIME);
  }

  /** The hash as 16 lowercase hex digits. */
  hex(): string {
    return (
      (this.laneA >>> 0).toString(16).padStart(8, '0') +
      (this.laneB >>> 0).toString(16).padStart(8, '0')
    );
  }
}

/** Java's `String.hashCode` over UTF-16 code units, with 32-bit overflow. */
export function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}
