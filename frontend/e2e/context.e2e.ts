// End-to-end: pins and the compression preview in a live run, the memory
// page, and the notice of a broken hermes.toml, against a real `hermes serve`
// and the scripted model process. scripts/e2e.sh passes HERMES_BIN and
// HERMES_SCRIPTMODEL.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlTaken, openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel, Step } from './model'
import type { Served } from './serve'

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let home: string
let workspace: string
// The run of the first test: its answer is the memory the second one forgets.
let pinnedRun = ''

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })
const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)
const waiting = async () => (await model.state()).waiting
const runState = (page: Page) => page.getByTestId('run-status').first().getAttribute('data-status')

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-context-',
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, 'notes'), { recursive: true })
      writeFileSync(join(workspace, 'notes', 'budget.md'), '# Budget\nThe trip may cost 4,500 EUR.\n')
    },
    config: ({ modelURL, workspace }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\ncontext_window = 16000\n\n[agent]\nmax_iterations = 8\nworkspace = "${workspace}"\nstrategy = "react"\nroute = false\n`,
  })
  ;({ browser, served, model, home, workspace } = live)
})

afterAll(() => live?.stop())

async function startRun(task: string, steps: Step[]): Promise<string> {
  await model.script(steps)
  const res = await served.api('POST', '/api/runs', { task, workspace })
  expect(res.status).toBe(201)
  return ((await res.json()) as { run_id: string }).run_id
}

async function openRun(page: Page, runId: string): Promise<void> {
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('iteration-card').first().waitFor()
}

describe('context and memory in the window', () => {
  it('pins a fact and a tool result in a live run; the next request’s anchor carries the fact', async () => {
    const before = (await model.requests()).length
    pinnedRun = await startRun('Plan the trip within the budget', [
      { content: 'Looking for the budget.', tool_calls: [call('c1', 'list_files', { path: 'notes' })], hold: true },
      { content: 'Reading it.', tool_calls: [call('c2', 'read_file', { path: 'notes/budget.md' })], hold: true },
      { content: 'The trip fits: it may cost 4,500 EUR.' },
    ])
    const { ctx, page } = await openPage(browser)
    await openRun(page, pinnedRun)
    await expect.poll(waiting).toBe(1)

    await page.getByTestId('pin-fact').click()
    await page.getByTestId('pin-fact-input').fill('The budget is 4,500 EUR')
    const pinTaken = controlTaken(page, pinnedRun)
    await page.getByTestId('pin-fact-save').click()
    await page.getByTestId('pin-fact').waitFor()
    await pinTaken
    await model.release()

    // The pin took effect at the safe point after the first iteration.
    const factMark = page.locator('[data-testid="mark"][data-kind="pinned"]').first()
    await expect.poll(() => factMark.textContent()).toContain('The budget is 4,500 EUR')
    await expect.poll(waiting).toBe(1)
    const second = (await model.requests())[before + 1]
    expect(second.messages[1].content).toContain('Pinned facts:\n- The budget is 4,500 EUR')

    // The first result went out with the second request: it can be pinned.
    const result = card(page, 1).getByTestId('call')
    await result.getByTestId('call-pin').click()
    await page.getByTestId('tab-budget').click()
    await page.getByTestId('compression-preview').waitFor()
    await expect.poll(() => page.getByTestId('pinned-facts').textContent()).toContain('The budget is 4,500 EUR')
    expect(await page.getByTestId('preview-summary').getAttribute('data-due')).toBe('false')
    await shot(page, 'context-pinned.png')
    await model.release()

    await expect.poll(() => runState(page)).toBe('finished')
    const kinds = await page.locator('[data-testid="mark"][data-kind="pinned"]').evaluateAll((els) => els.map((e) => e.textContent ?? ''))
    expect(kinds.some((k) => k.includes('#1') && k.includes('tool'))).toBe(true)
    const third = (await model.requests())[before + 2]
    expect(third.messages[1].content).toContain('The budget is 4,500 EUR')
    await ctx.close()
  })

  it('lists the memory a finished run wrote, links its run, and forgets it', async () => {
    expect(pinnedRun).not.toBe('')
    const { ctx, page } = await openPage(browser)
    await page.goto(served.url)
    await page.getByTestId('nav-memory').click()
    await page.getByTestId('memory-page').waitFor()
    // The run wrote its outcome (with the answer) and the files it used.
    const fromRun = page.locator('[data-testid="memory-row"]').filter({ has: page.locator(`[data-testid="memory-source"]:text-is("${pinnedRun}")`) })
    await expect.poll(() => fromRun.count()).toBe(2)
    const row = fromRun.filter({ hasText: '4,500 EUR' })
    expect(await row.count()).toBe(1)
    // It says it came from the run's result.
    expect(await row.getByTestId('memory-origin').textContent()).toBe('result')
    await page.getByTestId('memory-search').fill('trip')
    await expect.poll(() => row.count()).toBeGreaterThan(0)
    await shot(page, 'memory-page.png')

    const id = Number(await row.first().getAttribute('data-id'))
    await row.first().getByTestId('memory-pin').click()
    await expect.poll(() => row.first().getAttribute('data-pinned')).toBe('true')
    await row.first().getByTestId('memory-forget').click()
    await row.first().getByTestId('memory-forget-confirm').click()
    await expect.poll(() => page.locator(`[data-testid="memory-row"][data-id="${id}"]`).count()).toBe(0)
    const listed = (await (await served.api('GET', '/api/memory')).json()) as { id: number }[]
    expect(listed.map((e) => e.id)).not.toContain(id)
    await ctx.close()
  })

  it('shows a banner while hermes.toml is broken, with the mistake’s line, and clears it when fixed', async () => {
    const path = join(home, 'hermes.toml')
    const good = readFileSync(path, 'utf8')
    const { ctx, page } = await openPage(browser, { locale: 'zh-CN' })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()

    writeFileSync(path, good.replace('max_iterations = 8', 'max_iterations = 8\nmax_iteration = 9'))
    const banner = page.getByTestId('config-banner')
    await banner.waitFor()
    const problem = banner.getByTestId('config-problem').first()
    expect(await problem.getAttribute('data-line')).toBe('11')
    expect(await problem.textContent()).toContain('max_iterations')
    expect(await banner.textContent()).toContain('上一次正确的设置')
    await shot(page, 'config-banner.png')

    // New runs still start, on the last good config.
    await model.script([{ content: 'Still working.' }])
    const res = await served.api('POST', '/api/runs', { task: 'Say hello', workspace })
    expect(res.status).toBe(201)

    writeFileSync(path, good)
    await page.getByTestId('notice-toast').waitFor()
    await expect.poll(() => banner.count()).toBe(0)
    await ctx.close()
  })
})
