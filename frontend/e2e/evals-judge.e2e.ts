// End-to-end: the judge on the Evals page, and the runs list's label filter
// on the server. `hermes eval run` runs a one-task suite with a judge check
// three times against the scripted model, whose judge answers a passing
// score, then prose without a score, then a failing score; `hermes serve`
// on that home shows each verdict (score, the score it passes at, reason)
// and the run the judge could not grade, at 1280×720 in English and
// Chinese. Then 2,000 newer runs are written beside them, one eval run is
// labelled bad, and the runs list asks the server for the bad runs and
// finds it at once. scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

const config = (url: string) => `version = 1\n\n[model]\nbase_url = "${url}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\nmax_retries = 0\n\n[agent]\nmax_iterations = 3\nstrategy = "react"\nroute = false\n`

/** hermes runs the CLI to its end and resolves with its exit code and output. */
function hermes(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(env('HERMES_BIN'), args, { env: { ...process.env, HERMES_LANG: 'en' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (b: Buffer) => (out += b.toString()))
    child.stderr.on('data', (b: Buffer) => (out += b.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out }))
  })
}

/**
 * writeNewer writes n copies of the run log at path into home's logs, each
 * under an id of its own and started k minutes after the original: newer
 * runs, listed before every run of the eval.
 */
function writeNewer(path: string, n: number): void {
  const lines = readFileSync(path, 'utf8').trim().split('\n')
  const id = (JSON.parse(lines[0]) as { run_id: string }).run_id
  for (let k = 1; k <= n; k++) {
    const shift = k * 60_000
    let copyId = ''
    const out = lines.map((l) => {
      const e = JSON.parse(l) as { run_id: string; time: string }
      const at = new Date(Date.parse(e.time) + shift)
      copyId ||= `${at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${k.toString(16).padStart(6, '0')}`
      return JSON.stringify({ ...e, run_id: copyId, time: at.toISOString() })
    })
    const day = join(home, 'logs', new Date(Date.parse((JSON.parse(lines[0]) as { time: string }).time) + shift).toISOString().slice(0, 10))
    mkdirSync(day, { recursive: true })
    writeFileSync(join(day, `run_${copyId}.jsonl`), out.join('\n').replaceAll(id, copyId) + '\n')
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hermes-e2e-judge-'))
  home = join(tmp, 'home')
  mkdirSync(home)
  writeFileSync(
    join(tmp, 'judged.toml'),
    `name = "judged"\n\n[[task]]\nid = "summary"\ntask = "Say in one line what the notes say"\n\n  [[task.check]]\n  answer_matches = "Friday"\n  [[task.check]]\n  judge = "The line says when the review is and invents nothing."\n  pass_at = 0.7\n`,
  )
  model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
  writeFileSync(join(home, 'hermes.toml'), config(model.url))
  // One run at a time: each run's answer, then its judge's.
  await model.script([
    { content: 'The review is on Friday.' },
    { content: '{"score": 0.9, "reason": "It names Friday and adds nothing."}' },
    { content: 'The review is on Friday.' },
    { content: 'Looks fine to me.' },
    { content: 'The review is on Friday, at the lake.' },
    { content: '{"score": 0.3, "reason": "The lake is not in the notes."}' },
  ])
  const ev = await hermes(['eval', 'run', join(tmp, 'judged.toml'), '--home', home, '--repeat', '3', '--parallel', '1'])
  expect(ev.code, ev.out).toBe(1) // one failed, one not graded
  const days = readdirSync(join(home, 'logs'))
  const first = readdirSync(join(home, 'logs', days[0])).find((f) => f.endsWith('.jsonl'))!
  writeNewer(join(home, 'logs', days[0], first), 2000)
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

async function openCell(page: Page): Promise<void> {
  await page.goto(served!.url)
  await page.getByTestId('runs-page').waitFor()
  await page.getByTestId('nav-evals').click()
  await page.getByTestId('eval-link').first().click()
  await page.getByTestId('eval-cell').click()
  await page.getByTestId('eval-judge').waitFor()
}

describe('the judge on the Evals page', () => {
  for (const c of [
    { locale: 'en-US', pass: 'score 0.90 (passes at 0.70)', fail: 'score 0.30 (passes at 0.70)', ungraded: 'not graded', inCell: '1 not graded', noScore: "the judge's answer holds no score: \"Looks fine to me.\"", next: 'set [eval] judge_model to a model that follows instructions', file: 'evals-judge-en.png' },
    { locale: 'zh-CN', pass: '得分 0.90（0.70 通过）', fail: '得分 0.30（0.70 通过）', ungraded: '未评分', inCell: '1 个未评分', noScore: '评判模型的回答中没有分数："Looks fine to me."', next: '请把 [eval] judge_model 设为能遵循指令的模型', file: 'evals-judge-zh.png' },
  ]) {
    it(`shows each verdict and the run it could not grade (${c.locale})`, async () => {
      const { ctx, page } = await openPage(browser!, { locale: c.locale, width: 1280, height: 720 })
      await openCell(page)
      const verdicts = page.getByTestId('eval-judge-reason')
      expect(await verdicts.count()).toBe(3)
      const [one, two, three] = [verdicts.nth(0), verdicts.nth(1), verdicts.nth(2)]
      expect(await one.getAttribute('data-pass')).toBe('true')
      expect(await one.getByTestId('eval-judge-score').textContent()).toBe(c.pass)
      expect(await one.getByTestId('eval-judge-said').textContent()).toBe('It names Friday and adds nothing.')
      expect(await two.getAttribute('data-ungraded')).toBe('true')
      expect(await two.textContent()).toContain(c.ungraded)
      expect(await three.getAttribute('data-pass')).toBe('false')
      expect(await three.getByTestId('eval-judge-score').textContent()).toBe(c.fail)
      expect(await three.getByTestId('eval-judge-said').textContent()).toBe('The lake is not in the notes.')

      // The run the judge could not grade is neither passed nor failed, and says what to do.
      const marks = page.getByTestId('eval-run-mark')
      expect(await marks.nth(1).textContent()).toBe(c.ungraded)
      const error = (await page.getByTestId('eval-run-error').textContent()) ?? ''
      expect(error).toContain(c.noScore)
      expect(error).toMatch(/hermes eval run --resume ev-/)
      expect(error).toContain(c.next)
      // Counted apart in the cell: one of two graded runs passed, one not graded, no error.
      const cell = page.getByTestId('eval-cell')
      expect(await cell.getAttribute('data-passed')).toBe('1')
      expect(await cell.getByTestId('eval-cell-passed').textContent()).toBe('1/2')
      expect(await cell.getByTestId('eval-cell-ungraded').textContent()).toBe(c.inCell)
      expect(await cell.getByTestId('eval-cell-errors').count()).toBe(0)
      await page.getByTestId('nav-evals').click()
      expect(await page.getByTestId('eval-row-ungraded').textContent()).toBe('1')
      expect(await page.getByTestId('eval-row-errors').textContent()).toBe('0')
      await shot(page, c.file.replace('judge', 'list'))
      await openCell(page)
      await page.getByTestId('eval-judge').scrollIntoViewIfNeeded()
      await shot(page, c.file)
      await ctx.close()
    })
  }
})

describe('the runs list filtered by label', () => {
  it('asks the server for the bad runs, and finds one past 2,000 newer runs', async () => {
    const { ctx, page } = await openPage(browser!, { width: 1280, height: 720 })
    await openCell(page)
    const link = page.getByTestId('eval-run-link').nth(2)
    const id = ((await link.textContent()) ?? '').split(' · ').at(-1) ?? ''
    await link.click()
    await page.getByTestId('run-label-bad').click()
    await page.getByTestId('run-label-note-input').fill('the lake is made up')
    await page.getByTestId('run-label-save').click()
    await page.getByTestId('run-label-tag').waitFor()

    await page.getByTestId('run-back').click()
    await page.getByTestId('runs-table').waitFor()
    expect(await page.locator(`[data-testid="run-row"][data-run-id="${id}"]`).count()).toBe(0) // far past the first page
    const asked = page.waitForResponse((r) => r.url().includes('/api/runs?') && new URL(r.url()).searchParams.get('label') === 'bad')
    await page.getByTestId('runs-label-filter').selectOption('bad')
    const res = await asked
    expect(((await res.json()) as { runs: { run_id: string }[] }).runs.map((r) => r.run_id)).toEqual([id])
    await page.locator(`[data-testid="run-row"][data-run-id="${id}"]`).waitFor()
    expect(await page.getByTestId('run-row').count()).toBe(1)
    expect(await page.getByTestId('run-row-label').getAttribute('data-label')).toBe('bad')
    await shot(page, 'runs-label-bad.png')

    await page.getByTestId('runs-label-filter').selectOption('good')
    await page.getByText('No run matches this filter.').waitFor()
    await page.getByTestId('runs-label-filter').selectOption('')
    await page.getByTestId('runs-more').waitFor() // all the runs again, a page at a time
    expect(await page.getByTestId('run-row').count()).toBeGreaterThanOrEqual(50)
    await ctx.close()
  })
})
