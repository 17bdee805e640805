// A vitest reporter for what the JSON reporter leaves out: errors of a describe block (a failing
// beforeAll/afterAll) and errors thrown outside any test. The JSON report marks such a file failed
// with an empty message; scripts/test.mjs names the error from this file instead.
import { writeFileSync } from 'node:fs';

export default class SuiteErrorsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const out = process.env.WXC_SUITE_ERRORS_FILE;
    if (!out) return;
    const errors = [];
    const first = (list) => list.map((e) => e.stack || e.message || String(e))[0];
    for (const m of testModules) {
      if (m.errors().length) errors.push({ file: m.moduleId, where: '', error: first(m.errors()) });
      for (const s of m.children.allSuites())
        if (s.errors().length) errors.push({ file: m.moduleId, where: s.fullName, error: first(s.errors()) });
    }
    for (const e of unhandledErrors) errors.push({ file: '', where: 'unhandled', error: first([e]) });
    writeFileSync(out, JSON.stringify(errors, null, 2));
  }
}
