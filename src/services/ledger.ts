/** Files whose last-read version is remembered; the least recently read are forgotten first. */
const MAX_LEDGER_FILES = 10_000;

/**
 * What the model last saw of each file: the `version` (content identity) the read
 * reported, and the lines it showed. Mutating tools compare against it to tell that a
 * file changed after the model read it.
 */
export interface ReadRecord {
  version: string;
  first?: number;
  last?: number;
}

export class ReadLedger {
  private readonly records = new Map<string, ReadRecord>();

  record(realPath: string, rec: ReadRecord): void {
    this.records.delete(realPath);
    this.records.set(realPath, rec);
    if (this.records.size > MAX_LEDGER_FILES) {
      this.records.delete(this.records.keys().next().value as string);
    }
  }

  get(realPath: string): ReadRecord | undefined {
    return this.records.get(realPath);
  }
}
