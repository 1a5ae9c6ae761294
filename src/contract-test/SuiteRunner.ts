import { CheckContext, CheckFailure, CheckSkipped } from "./CheckContext.js";
import type { CheckGroup, CheckResult } from "./checkResult.js";
import { curlLine } from "./curlLine.js";

/** Runs checks one at a time (a deployment under test is not a load test) and collects their results. */
export class SuiteRunner {
  readonly results: CheckResult[] = [];

  constructor(
    private readonly timeoutMs: number,
    private readonly headers: Readonly<Record<string, string>>,
    private readonly onResult: ((result: CheckResult) => void) | undefined,
  ) {}

  context(): CheckContext {
    return new CheckContext(this.timeoutMs, this.headers);
  }

  async check(
    group: CheckGroup,
    name: string,
    body: (t: CheckContext) => Promise<void>,
    flags: { shardkitOnly?: boolean } = {},
  ): Promise<CheckResult> {
    const t = this.context();
    const started = Date.now();
    let outcome: CheckResult["outcome"] = "pass";
    let message: string | undefined;
    let curl: string | undefined;
    try {
      await body(t);
    } catch (error) {
      if (error instanceof CheckSkipped) {
        outcome = "skip";
        message = error.message;
      } else {
        outcome = "fail";
        message = error instanceof Error ? error.message : String(error);
        const request = error instanceof CheckFailure ? (error.request ?? t.last) : t.last;
        if (request !== undefined) curl = curlLine(request);
      }
    }
    const result: CheckResult = {
      group,
      name,
      outcome,
      message,
      curl,
      shardkitOnly: flags.shardkitOnly ?? false,
      durationMs: Date.now() - started,
    };
    this.results.push(result);
    this.onResult?.(result);
    return result;
  }

  async skip(group: CheckGroup, name: string, message: string, flags: { shardkitOnly?: boolean } = {}): Promise<void> {
    await this.check(group, name, async (t) => t.skip(message), flags);
  }
}
