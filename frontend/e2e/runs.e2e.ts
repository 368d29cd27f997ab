// End-to-end: the built UI in headless Chromium against a real `hermes serve`
// on a home of real run logs. scripts/e2e.sh prepares the environment:
//   HERMES_BIN            hermes built with -tags headless,ui
//   HERMES_E2E_HOME       a home written by backend/server/servertest/mkhome
//   HERMES_E2E_EXPECTED   mkhome's JSON: the runs, newest first
//   HERMES_E2E_EMPTY_HOME a home with no runs
//   HERMES_ARTIFACTS      where screenshots go
import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env, launch, openPage as open, shot, type PageOptions } from './browser'
import { serve, type Served } from './serve'

interface Expected {
  run_id: string
  task: string
  status: string
  iterations: number
  tokens: number
  events: number
}

const expected = JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as Expected[]

let browser: Browser
let served: Served
let emptyServed: Served

beforeAll(async () => {
  ;[served, emptyServed] = await Promise.all([serve(env('HERMES_BIN'), env('HERMES_E2E_HOME')), serve(env('HERMES_BIN'), env('HERMES_E2E_EMPTY_HOME'))])
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  const codes = await Promise.all([served?.stop(), emptyServed?.stop()])
  // SIGTERM is a clean stop for `hermes serve`.
  expect(codes).toEqual([0, 0])
})

const openPage = (opts: PageOptions = {}) => open(browser, opts)

describe('runs page', () => {
  it('lists the runs newest first with their task, status, iterations and tokens', async () => {
    const { ctx, page } = await openPage()
    await page.goto(served.url)
    const rows = page.getByTestId('run-row')
    // The home's runs, then the sample run that ships inside Hermes.
    await expect.poll(() => rows.count()).toBe(expected.length + 1)
    expect(await rows.last().getAttribute('data-sample')).toBe('true')
    for (const [i, want] of expected.entries()) {
      const row = rows.nth(i)
      expect(await row.getAttribute('data-run-id')).toBe(want.run_id)
      expect(await row.getByTestId('run-task').textContent()).toBe(want.task)
      expect(await row.getByTestId('run-status').getAttribute('data-status')).toBe(want.status)
      expect(await row.getByTestId('run-iterations').textContent()).toBe(String(want.iterations))
      expect(await row.getByTestId('run-tokens').getAttribute('title')).toBe(String(want.tokens))
    }
    expect(await rows.first().getByTestId('run-status').textContent()).toBe('Finished')
    await shot(page, 'runs-en.png')
    await ctx.close()
  })

  it('opens a run and shows its events in seq order, each expandable to JSON', async () => {
    const { ctx, page } = await openPage()
    await page.goto(served.url)
    const want = expected[1]
    await page.locator(`[data-run-id="${want.run_id}"]`).getByTestId('run-task').click()
    await page.getByTestId('run-page').waitFor()
    expect(page.url()).toContain(`#/runs/${want.run_id}`)
    expect(await page.getByTestId('run-title').textContent()).toBe(want.task)
    expect(await page.getByTestId('run-iterations').textContent()).toBe(String(want.iterations))

    await page.getByTestId('iteration-card').first().waitFor()
    await page.getByTestId('tab-events-list').click()
    const rows = page.getByTestId('event-row')
    await expect.poll(() => rows.count()).toBeGreaterThan(0)
    const seqs = (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq')))))
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
    expect(await rows.first().getAttribute('data-type')).toBe('run.started')
    expect(await rows.first().getByTestId('event-summary').textContent()).toContain(want.task)

    // The list is virtualised: scrolled to the end, the last event is run.finished.
    await page.getByTestId('event-list').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    const last = page.locator(`[data-testid="event-row"][data-seq="${want.events}"]`)
    await last.waitFor()
    expect(await last.getAttribute('data-type')).toBe('run.finished')
    await page.getByTestId('event-list').evaluate((el) => el.scrollTo(0, 0))

    await rows.nth(1).locator('button').click()
    const json: unknown = JSON.parse((await page.getByTestId('event-json').textContent()) ?? '')
    expect(json).toMatchObject({ v: 1, run_id: want.run_id, seq: 2, type: 'iteration.started', iteration: 1 })
    await shot(page, 'run-en.png')

    await page.getByTestId('run-back').click()
    await page.getByTestId('runs-table').waitFor()
    await ctx.close()
  })

  it('switches the language, and keeps the choice across reloads', async () => {
    const { ctx, page } = await openPage()
    await page.goto(served.url)
    await page.getByTestId('runs-table').waitFor()
    expect(await page.locator('h1').textContent()).toBe('Runs')
    expect(await page.locator('html').getAttribute('lang')).toBe('en')

    await page.getByTestId('lang-select').selectOption('zh-CN')
    await expect.poll(() => page.locator('h1').textContent()).toBe('运行记录')
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN')
    expect(await page.locator('th').first().textContent()).toBe('任务')
    expect(await page.getByTestId('run-status').first().textContent()).toBe('已完成')
    await shot(page, 'runs-zh.png')

    await page.reload()
    await page.getByTestId('runs-table').waitFor()
    expect(await page.locator('h1').textContent()).toBe('运行记录')
    await page.getByTestId('lang-select').selectOption('en')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Runs')
    await ctx.close()
  })

  it('follows a Chinese browser and a dark system theme', async () => {
    const { ctx, page } = await openPage({ locale: 'zh-CN', colorScheme: 'dark' })
    await page.goto(served.url + '#/runs/' + expected[0].run_id)
    await page.getByTestId('iteration-card').first().waitFor()
    expect(await page.getByTestId('run-back').textContent()).toContain('全部运行')
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(bg).toBe('rgb(18, 21, 27)')
    await shot(page, 'run-zh-dark.png')
    await ctx.close()
  })

  it('says when a run does not exist, in the chosen language', async () => {
    const { ctx, page } = await openPage({ locale: 'zh-CN' })
    await page.goto(served.url + '#/runs/20260101-000000-ffffff')
    const err = page.getByTestId('run-error')
    await err.waitFor()
    expect(await err.textContent()).toContain('找不到运行 20260101-000000-ffffff')
    await ctx.close()
  })

  it('shows a newcomer the sample run, which opens and replays at no cost', async () => {
    const { ctx, page } = await openPage({ width: 1440, height: 900 })
    await page.goto(emptyServed.url)
    const row = page.getByTestId('run-row')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('Sample')
    await row.getByTestId('run-task').click()
    await page.getByTestId('iteration-card').first().waitFor()
    expect(await page.getByTestId('resume-run').count()).toBe(0)
    // The README's picture of the timeline (docs/timeline.png) is this one.
    const four = page.locator('[data-testid="iteration-card"][data-iteration="4"]')
    await four.locator('.card-head').click()
    await four.scrollIntoViewIfNeeded()
    await expect.poll(() => page.getByTestId('inspector').getAttribute('data-iteration')).toBe('4')
    // The budget chart opened over the timeline's top, the cards of #3 and #4 below it.
    await page.getByTestId('panel-toggle-budget').click()
    await page.getByTestId('budget-chart').waitFor()
    await shot(page, 'timeline.png')
    await page.getByTestId('panel-toggle-budget').click()
    await page.getByTestId('replay').click()
    await page.getByTestId('replay-next-iteration').click()
    await expect.poll(() => page.locator('[data-testid="iteration-card"][data-iteration="1"]').count()).toBe(1)
    await shot(page, 'sample-replay.png')
    await ctx.close()
  })
})
