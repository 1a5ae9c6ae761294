// vitest globalSetup: after the run, the one notice about suites left out because this machine
// lacks a program they need (vitest.config.ts computes it; see requiredServices.ts).

export default function setup(): () => void {
  return () => {
    // Every project runs this teardown in the one main process: the first prints, the rest find nothing.
    const notice = process.env.SHARDKIT_SKIPPED_SUITES_NOTICE;
    delete process.env.SHARDKIT_SKIPPED_SUITES_NOTICE;
    if (notice !== undefined) process.stderr.write(`\n${notice}`);
  };
}
