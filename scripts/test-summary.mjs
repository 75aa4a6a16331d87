// Adds up Vitest and Playwright JSON reports into one "N passed, N failed" line, after the ten slowest test files
// of all the reports. Every Vitest test file must be in one of the Vitest reports given (scripts/test-passes.mjs:
// no file runs in neither pass), else the run fails.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { testFiles } from './test-passes.mjs';

const ROOT = resolve(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const ran = new Set();
let vitestReports = 0;
/** [seconds, file, report] of each test file. */
const files = [];

/** Playwright's suites hold specs and suites; a file's time is its tests' attempts added up. */
function playwrightSeconds(suite) {
  let ms = 0;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) for (const result of test.results) ms += result.duration;
  }
  for (const inner of suite.suites ?? []) ms += playwrightSeconds(inner) * 1000;
  return ms / 1000;
}

/** Playwright's skipped tests, each with why (its `skip` annotation): a test skipped at run time says so. */
function playwrightSkips(suite, out = []) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      if (!test.results.some((r) => r.status === 'skipped')) continue;
      const why = (test.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given';
      out.push(`${suite.file}: ${spec.title} — ${why}`);
    }
  }
  for (const inner of suite.suites ?? []) playwrightSkips(inner, out);
  return out;
}
const skips = [];

for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    // Vitest
    vitestReports++;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const result of report.testResults) {
      const name = relative(ROOT, result.name);
      ran.add(name);
      files.push([(result.endTime - result.startTime) / 1000, name, file]);
    }
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  } else {
    // Playwright
    const s = report.stats;
    passed += s.expected + s.flaky;
    failed += s.unexpected;
    skipped += s.skipped;
    for (const suite of report.suites) {
      files.push([playwrightSeconds(suite), `e2e/tests/${suite.file}`, file]);
      skips.push(...playwrightSkips(suite));
    }
    console.log(`${file}: ${s.expected + s.flaky} passed, ${s.unexpected} failed`);
  }
}

console.log('\nThe ten slowest test files:');
for (const [seconds, name, report] of files.sort((a, b) => b[0] - a[0]).slice(0, 10)) {
  console.log(`${seconds.toFixed(1).padStart(8)} s  ${name}  (${report})`);
}

let missing = [];
if (vitestReports > 0) {
  missing = testFiles().filter((file) => !ran.has(file));
  if (missing.length) console.log(`\nTest files in no Vitest pass: ${missing.join(', ')}`);
}
if (skips.length) console.log(`\nSkipped browser tests:\n${skips.map((line) => `  ${line}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 || missing.length > 0 ? 1 : 0);
