/**
 * What the model last saw of each file: the version of its text when it read it.
 * Mutating tools compare against it to tell that a file changed after it was read.
 */
export interface ReadRecord {
  version: string;
  /** "file": the hash covers the whole text; "page": only the lines shown (huge files). */
  scope: 'file' | 'page';
  first?: number;
  last?: number;
}

export class ReadLedger {
  private readonly records = new Map<string, ReadRecord>();

  record(realPath: string, rec: ReadRecord): void {
    this.records.set(realPath, rec);
  }

  get(realPath: string): ReadRecord | undefined {
    return this.records.get(realPath);
  }
}
