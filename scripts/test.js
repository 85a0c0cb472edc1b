// Runs every check and suite the project has, then prints one closing line
// `N passed, N failed` that sums them all. Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { relative } from 'node:path'

const results = []
// The closing lines are what a CI log's tail keeps, so each failed test is named there too.
const failedTests = []

function run(command, args, env = {}) {
  const outcome = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return outcome.status === 0
}

function check(name, args) {
  console.log(`\n▶ ${name}`)
  const ok = run('npm', ['run', '--silent', ...args])
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 })
}

function suite(name, args, report, count) {
  console.log(`\n▶ ${name}`)
  rmSync(report, { force: true })
  const ok = run('npm', ['run', '--silent', ...args], { FARM_BUILT: '1' })
  if (!existsSync(report)) {
    results.push({ name, passed: 0, failed: 1 })
    return
  }
  const counted = count(JSON.parse(readFileSync(report, 'utf8')))
  // A runner that failed without a failing test (a crash, no tests) still fails.
  if (!ok && counted.failed === 0) counted.failed = 1
  results.push({ name, ...counted })
}

function countVitest(report) {
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'passed') continue
      failedTests.push(
        `${relative(process.cwd(), file.name)} › ${test.fullName} (${test.status}): ${firstLine(test.failureMessages)}`,
      )
    }
    // A file that failed before its tests ran (an import, a hook) has no test to name.
    if (file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed')) {
      failedTests.push(`${relative(process.cwd(), file.name)}: ${firstLine([file.message])}`)
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + report.numPendingTests + report.numTodoTests,
  }
}

function firstLine(messages) {
  // The runners colour their messages.
  const plain = (messages.find(Boolean) ?? '').replace(/\u001b\[[0-9;]*m/g, '')
  return plain.split('\n')[0].slice(0, 300)
}

function namePlaywrightFailures(suites) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'expected') continue
        const errors = test.results.flatMap((result) => result.errors.map((error) => error.message))
        failedTests.push(`${spec.file}:${spec.line} › ${spec.title} (${test.status}): ${firstLine(errors)}`)
      }
    }
    namePlaywrightFailures(suite.suites)
  }
}

check('lint', ['lint'])
check('format', ['format:check'])
check('typecheck', ['typecheck'])

console.log('\n▶ build')
const built = run('npm', ['run', '--silent', 'build'])
results.push({ name: 'build', passed: built ? 1 : 0, failed: built ? 0 : 1 })
if (built) {
  console.log('\n▶ test tools (Chromium, SpamAssassin, a JRE, Postfix, Dovecot, heif-enc)')
  const tools = run('bash', ['scripts/ensure-test-tools.sh'])
  results.push({ name: 'test tools', passed: tools ? 1 : 0, failed: tools ? 0 : 1 })
  suite('vitest', ['test:unit'], 'test-results/vitest.json', countVitest)
  if (tools) {
    suite('playwright', ['test:e2e'], 'test-results/playwright.json', (report) => {
      namePlaywrightFailures(report.suites)
      return {
        passed: report.stats.expected,
        failed: report.stats.unexpected + report.stats.flaky + report.stats.skipped,
      }
    })
  } else {
    results.push({ name: 'playwright', passed: 0, failed: 1 })
  }
  // Last, since `npm run dev` rebuilds build/ for development; then build for production again.
  suite('dev reload', ['test:dev'], 'test-results/vitest-dev.json', countVitest)
  console.log('\n▶ build again for production')
  const rebuilt = run('npm', ['run', '--silent', 'build'])
  results.push({ name: 'build again', passed: rebuilt ? 1 : 0, failed: rebuilt ? 0 : 1 })
}

console.log('')
for (const test of failedTests) console.log(`failed: ${test}`)
for (const { name, passed, failed } of results) console.log(`${name}: ${passed} passed, ${failed} failed`)
const passed = results.reduce((sum, r) => sum + r.passed, 0)
const failed = results.reduce((sum, r) => sum + r.failed, 0)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
