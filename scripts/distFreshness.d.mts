export declare const repoRoot: string;
/** dist/cli/main.js (the CLI bundle, the build's last output) */
export declare const builtCli: string;
/** True when no build input (src, generated, tsconfigs, package.json) is newer than the last build. */
export declare function distIsFresh(): boolean;
