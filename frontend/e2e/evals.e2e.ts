// End-to-end: the Evals page, labels and Save as test case. `hermes eval
// run` runs a one-task suite under two models against the scripted model
// in the test's home (one run passes, one fails); then `hermes serve` on
// that home shows the eval's table in headless Chromium at 1280×720, a cell
// opens its run, the two variants stand side by side with the iteration
// that differs marked; a run is labelled bad and the runs list filtered by
// it; Save as test case writes a suite that `hermes eval run` passes; and
// a `hermes serve` attached to a running eval fills its table as runs end.
// scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env, launch, openPage, shot } from './browser'
import { startModel, type ScriptModel } from './model'
import { serve, type Served } from './serve'

let tmp = ''
let home = ''
let model: ScriptModel | undefined
let served: Served | undefined
let browser: Browser | undefined

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })
const config = (url: string) => `version = 1\n\n[model]\nbase_url = "${url}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 6\nstrategy = "react"\nroute = false\n`

/** hermes runs the CLI to its end and resolves with its exit code and output. */
function hermes(args: string[]): Promise<{ code: number | null; out: string }> {
  return started(args).done
}

/** started starts the CLI; done resolves with its exit code and output. */
function started(args: string[]): { done: Promise<{ code: number | null; out: string }> } {
  const done = new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(env('HERMES_BIN'), args, { env: { ...process.env, HERMES_LANG: 'en' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (b: Buffer) => (out += b.toString()))
    child.stderr.on('data', (b: Buffer) => (out += b.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out }))
  })
  return { done }
}

// Each run reads the note; the first answers what it says, the second not.
const reads = (id: string, answer: string) => [{ content: 'Reading the note.', tool_calls: [call(id, 'read_file', { path: 'notes/a.md' })] }, { content: answer }]

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hermes-e2e-evals-'))
  home = join(tmp, 'home')
  const suite = join(tmp, 'suite')
  mkdirSync(home)
  mkdirSync(join(suite, 'fixtures', 'notes', 'notes'), { recursive: true })
  writeFileSync(join(suite, 'fixtures', 'notes', 'notes', 'a.md'), '# A\nThe review is on Friday.\n')
  writeFileSync(
    join(suite, 'notes.toml'),
    `name = "notes"\n\n[[task]]\nid = "when"\ntask = "Read notes/a.md and say which day the review is"\nworkspace = "fixtures/notes"\n\n  [[task.check]]\n  answer_matches = "Friday"\n`,
  )
  model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
  writeFileSync(join(home, 'hermes.toml'), config(model.url))
  await model.script([...reads('r1', 'The review is on Friday.'), ...reads('r2', 'The review is on Monday.')])
  // One run at a time, so the runs take the script in turn.
  const ev = await hermes(['eval', 'run', join(suite, 'notes.toml'), '--home', home, '--model', 'model-a', '--model', 'model-b', '--parallel', '1'])
  expect(ev.code, ev.out).toBe(1) // one run failed its check
  served = await serve(env('HERMES_BIN'), home)
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  const code = await served?.stop()
  await model?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
  expect(code).toBe(0)
})

async function openEval(page: Page, url = served!.url): Promise<void> {
  await page.goto(url)
  await page.getByTestId('runs-page').waitFor()
  await page.getByTestId('nav-evals').click()
  await page.getByTestId('evals-table').waitFor()
  await page.getByTestId('eval-link').first().click()
  await page.getByTestId('eval-matrix').waitFor()
}

/** failedRun is the run id of the matrix's failed cell, read from its runs. */
async function failedRun(page: Page): Promise<string> {
  await page.locator('[data-testid="eval-cell"][data-passed="0"]').click()
  const link = page.locator('[data-testid="eval-cell-runs"] [data-testid="eval-run-link"]')
  return ((await link.textContent()) ?? '').split(' · ').at(-1) ?? ''
}

describe('the Evals page', () => {
  it('shows the table, opens a cell\'s run and sets the two variants side by side', async () => {
    const { ctx, page } = await openPage(browser!, { width: 1280, height: 720 })
    await openEval(page)
    const cells = page.getByTestId('eval-cell')
    expect(await cells.count()).toBe(2)
    expect(await page.locator('[data-testid="eval-cell"][data-passed="1"]').count()).toBe(1)
    expect(await page.locator('[data-testid="eval-cell"][data-passed="0"]').count()).toBe(1)
    expect(await page.getByTestId('eval-progress').textContent()).toContain('2 of 2')
    expect(await page.getByTestId('eval-page').getAttribute('data-state')).toBe('done')

    // Side by side: both read the note (#1 the same), then answered apart (#2 marked).
    const rows = page.getByTestId('eval-pair-row')
    await rows.first().waitFor()
    expect(await rows.count()).toBe(2)
    expect(await rows.nth(0).getAttribute('data-differs')).toBe('false')
    expect(await rows.nth(1).getAttribute('data-differs')).toBe('true')
    expect(await page.getByTestId('eval-pair-view').getAttribute('data-differ')).toBe('1')

    const id = await failedRun(page)
    expect(id).not.toBe('')
    await shot(page, 'evals-matrix.png')
    await page.getByTestId('eval-run-link').click()
    await page.getByTestId('iteration-card').first().waitFor()
    expect(page.url()).toContain(`#/runs/${id}`)
    expect(await page.getByTestId('run-title').textContent()).toMatch(/^eval ev-.* · when · model-[ab] #1$/)
    await ctx.close()
  })

  it('labels a run bad with a note, and the runs list filters by the label', async () => {
    const { ctx, page } = await openPage(browser!, { width: 1280, height: 720 })
    await openEval(page)
    const id = await failedRun(page)
    await page.getByTestId('eval-run-link').click()
    await page.getByTestId('run-label-bad').click()
    await page.getByTestId('run-label-note-input').fill('said Monday; the note says Friday')
    const put = page.waitForResponse((r) => r.url().endsWith(`/api/runs/${id}/label`) && r.request().method() === 'PUT')
    await page.getByTestId('run-label-save').click()
    expect((await put).status()).toBe(204)
    expect(await page.getByTestId('run-label-tag').textContent()).toBe('Bad')
    expect(await page.getByTestId('run-label-note').textContent()).toBe('said Monday; the note says Friday')

    await page.getByTestId('run-back').click()
    await page.getByTestId('runs-table').waitFor()
    expect(await page.locator('[data-testid="run-row"][data-sample="false"]').count()).toBe(2) // and the sample run
    await page.getByTestId('runs-label-filter').selectOption('bad')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1)
    expect(await page.getByTestId('run-row').getAttribute('data-run-id')).toBe(id)
    expect(await page.getByTestId('run-row-label').getAttribute('data-label')).toBe('bad')
    await page.getByTestId('runs-label-filter').selectOption('good')
    await page.getByText('No run matches this filter.').waitFor()
    await ctx.close()
  })

  it('saves a bad run as a test case that hermes eval run passes', async () => {
    const { ctx, page } = await openPage(browser!, { width: 1280, height: 720 })
    await openEval(page)
    const id = await failedRun(page)
    await page.getByTestId('eval-run-link').click()
    await page.getByTestId('run-save-case').click()
    const toml = page.getByTestId('case-toml')
    await toml.waitFor()
    const proposed = await toml.inputValue()
    expect(proposed).toContain('task = \'Read notes/a.md and say which day the review is\'')
    expect(proposed).toContain('tool = "read_file"')
    expect(await page.getByTestId('case-files').textContent()).toContain('notes/a.md')

    // Outside the home and the run's workspace: refused, and said so.
    await page.getByTestId('case-suite').fill(join(tmp, 'elsewhere.toml'))
    await page.getByTestId('case-save').click()
    expect(await page.getByTestId('case-error').textContent()).toContain('outside the home')

    // The run said Monday: the person corrects the check to what it should say.
    const edited = proposed.replace(/answer_matches = .*/, "answer_matches = '(?i)friday'")
    expect(edited).not.toBe(proposed)
    await toml.fill(edited)
    await page.getByTestId('case-suite').fill('suites/from-run.toml')
    await page.getByTestId('case-save').click()
    const suitePath = join(home, 'suites', 'from-run.toml')
    expect(await page.getByTestId('case-saved').textContent()).toContain(suitePath)
    await shot(page, 'evals-case.png')
    await ctx.close()
    expect(readFileSync(suitePath, 'utf8')).toContain("answer_matches = '(?i)friday'")
    expect(id).not.toBe('')

    // hermes eval run takes the suite (in a home of its own: serve owns this one) and the case passes.
    const other = join(tmp, 'other')
    mkdirSync(other)
    writeFileSync(join(other, 'hermes.toml'), config(model!.url))
    await model!.script(reads('c1', 'The review is on Friday.'))
    const ev = await hermes(['eval', 'run', suitePath, '--home', other, '--model', 'model-a'])
    expect(ev.code, ev.out).toBe(0)
  })

  it('fills a running eval\'s table as its runs are checked, in a hermes serve attached to the eval', async () => {
    const home2 = join(tmp, 'live')
    mkdirSync(home2)
    writeFileSync(join(home2, 'hermes.toml'), config(model!.url))
    // The first run waits for its first answer, the second for its last.
    const [a1, a2] = reads('l1', 'The review is on Friday.')
    const [b1, b2] = reads('l2', 'The review is on Monday.')
    await model!.script([{ ...a1, hold: true }, a2, b1, { ...b2, hold: true }])
    const ev = started(['eval', 'run', join(tmp, 'suite', 'notes.toml'), '--home', home2, '--model', 'model-a', '--model', 'model-b', '--parallel', '1'])
    await expect.poll(async () => (await model!.state()).waiting, { timeout: 20_000 }).toBe(1)
    const attached = await serve(env('HERMES_BIN'), home2)
    try {
      const { ctx, page } = await openPage(browser!, { width: 1280, height: 720 })
      await openEval(page, attached.url)
      expect(await page.getByTestId('eval-page').getAttribute('data-state')).toBe('running')
      expect(await page.locator('[data-testid="eval-cell"][data-runs="0"]').count()).toBe(2)
      await model!.release()
      // The first run is checked while the second waits: its cell fills, the eval still running.
      await page.locator('[data-testid="eval-cell"][data-runs="1"]').waitFor()
      expect(await page.locator('[data-testid="eval-cell"][data-runs="0"]').count()).toBe(1)
      expect(await page.getByTestId('eval-page').getAttribute('data-state')).toBe('running')
      await shot(page, 'evals-live.png')
      await ctx.close()
      await model!.release()
      expect((await ev.done).code).toBe(1)
    } finally {
      await attached.stop()
    }
  })
})
