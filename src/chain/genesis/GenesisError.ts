/** A genesis file or record that cannot be loaded; `recordIndex` names the bad record. */
export class GenesisError extends Error {
  override readonly name = "GenesisError";
  constructor(
    message: string,
    readonly recordIndex?: number,
  ) {
    super(recordIndex === undefined ? message : `genesis record #${recordIndex}: ${message}`);
  }
}
