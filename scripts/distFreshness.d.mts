export declare const repoRoot: string;
/** dist/src/cli/main.js */
export declare const builtCli: string;
/** True when no build input (src, generated, tsconfigs, package.json) is newer than the last build. */
export declare function distIsFresh(): boolean;
