/** Column where an option's description starts in every command's help (after `  --flag VALUE`). */
export const USAGE_HELP_COLUMN = 31;

/** One option line of a help text: the flag padded to USAGE_HELP_COLUMN, then its description. */
export function usageLine(flag: string, help: string): string {
  return `${`  ${flag}`.padEnd(USAGE_HELP_COLUMN - 1)} ${help}`;
}
