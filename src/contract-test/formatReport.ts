import type { CheckResult } from "./checkResult.js";
import type { ContractTestReport } from "./runContractTests.js";

const MARK = { pass: "PASS", fail: "FAIL", skip: "SKIP" } as const;

/** One plain line per check; a failure adds its reason and curl line indented below it. */
export function formatResultLines(result: CheckResult): string[] {
  const flag = result.shardkitOnly ? " [shardkit-only]" : "";
  const lines = [`${MARK[result.outcome]} ${result.group.padEnd(12)} ${result.name}${flag}${result.outcome === "skip" ? ` (${result.message})` : ""}`];
  if (result.outcome === "fail") {
    lines.push(`     ${result.message ?? "failed"}`);
    if (result.curl !== undefined) lines.push(`     ${result.curl}`);
  }
  return lines;
}

export function formatSummary(report: ContractTestReport): string {
  return `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
}

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/** JUnit XML: one testsuite per group, one testcase per check. */
export function formatJunit(report: ContractTestReport): string {
  const groups = [...new Set(report.results.map((r) => r.group))];
  const suites = groups.map((group) => {
    const cases = report.results.filter((r) => r.group === group);
    const count = (outcome: CheckResult["outcome"]) => cases.filter((r) => r.outcome === outcome).length;
    const seconds = cases.reduce((sum, r) => sum + r.durationMs, 0) / 1000;
    const body = cases
      .map((r) => {
        const open = `    <testcase classname="shardkit.contract-test.${group}" name="${xml(r.name + (r.shardkitOnly ? " [shardkit-only]" : ""))}" time="${(r.durationMs / 1000).toFixed(3)}"`;
        if (r.outcome === "pass") return `${open}/>`;
        if (r.outcome === "skip") return `${open}>\n      <skipped message="${xml(r.message ?? "")}"/>\n    </testcase>`;
        const detail = [r.message ?? "", r.curl ?? ""].filter((s) => s !== "").join("\n");
        return `${open}>\n      <failure message="${xml(r.message ?? "failed")}">${xml(detail)}</failure>\n    </testcase>`;
      })
      .join("\n");
    return `  <testsuite name="${group}" tests="${cases.length}" failures="${count("fail")}" skipped="${count("skip")}" errors="0" time="${seconds.toFixed(3)}">\n${body}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shardkit contract-test" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}">\n${suites.join("\n")}\n</testsuites>\n`;
}
