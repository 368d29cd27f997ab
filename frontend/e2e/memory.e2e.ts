// End-to-end: long-term memory in a 1280×720 window, in English and
// Chinese. A run started from the New run form recalls what an earlier run
// kept when its task is about it, and says how relevant it is; the form
// switches memory off for one run. A fork has no memory unless its dialog
// asks for some, and then only what was written before its source started:
// never the source's own answer. Live runs of a real `hermes serve` against
// the scripted model; scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HermesEvent, MemoryRecalledData, RunStartedData } from '../src/api/types'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel } from './model'
import type { Served } from './serve'

const width = 1280
const height = 720

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-memory-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 6\nstrategy = "react"\nroute = false\n`,
  })
  ;({ browser, served, model, workspace } = live)
})

afterAll(() => live?.stop())

async function events(runId: string): Promise<HermesEvent[]> {
  const res = await served.api('GET', `/api/runs/${runId}/events`)
  expect(res.status).toBe(200)
  return (await res.json()) as HermesEvent[]
}

// untilEnd reads a run's event stream until the server says its leg is over.
async function untilEnd(runId: string): Promise<void> {
  const res = await served.api('GET', `/api/runs/${runId}/stream?after=0`)
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while (!/^event: end$/m.test(text)) {
    const { value, done } = await reader.read()
    if (done) break
    text += value
  }
  await reader.cancel()
}

const runState = (page: Page) => page.getByTestId('run-status').first().getAttribute('data-status')
const runId = async (page: Page) => (await page.getByTestId('run-page').getAttribute('data-run-id')) ?? ''
const recalledMark = (page: Page) => page.locator('[data-testid="mark"][data-kind="recalled"]')
const lastAsked = async () => ((await model.requests()).at(-1)?.messages ?? []).map((m) => m.content).join('\n')

async function startFromForm(page: Page, task: string, memory: string): Promise<string> {
  await page.goto(served.url)
  await page.getByTestId('new-run').click()
  await page.getByTestId('new-task').fill(task)
  await page.getByTestId('new-workspace').fill(workspace)
  await page.getByTestId('new-memory').selectOption(memory)
  await page.getByTestId('new-start').click()
  await page.getByTestId('run-page').waitFor()
  await expect.poll(() => runState(page)).toBe('finished')
  return runId(page)
}

const firstCard = (page: Page) => page.locator('[data-testid="iteration-card"][data-iteration="1"]')

async function openRun(page: Page, id: string): Promise<void> {
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${id}`)
  await firstCard(page).waitFor()
}

async function fork(page: Page, memory: string, screenshot = ''): Promise<string> {
  const source = await runId(page)
  await firstCard(page).getByTestId('card-fork').click()
  const dialog = page.getByTestId('fork-dialog')
  expect(await dialog.getByTestId('fork-memory').inputValue()).toBe('off')
  await dialog.getByTestId('fork-memory').selectOption(memory)
  // The whole dialog fits the window, its Fork button in view.
  expect(await dialog.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true)
  if (screenshot) await shot(page, screenshot)
  await dialog.getByTestId('fork-start').click()
  await page.waitForURL((u) => !u.hash.includes(source))
  await expect.poll(() => runState(page)).toBe('finished')
  return runId(page)
}

describe('long-term memory', () => {
  let earlier = ''
  let source = ''

  it('recalls what an earlier run kept into a run about it, saying how relevant it is, and none into a run with memory off', async () => {
    await model.script([{ content: 'Draft: Q3 sales revenue about 1.2 million.' }])
    const res = await served.api('POST', '/api/runs', { task: 'Draft the Q3 sales report', workspace })
    expect(res.status).toBe(201)
    earlier = ((await res.json()) as { run_id: string }).run_id
    await untilEnd(earlier)

    await model.script([{ content: 'Q3 revenue was 1,204,000.' }, { content: 'Updated without memory.' }])
    const { ctx, page } = await openPage(browser, { width, height })
    await page.goto(served.url)
    await page.getByTestId('new-run').click()
    expect(await page.getByTestId('new-memory').inputValue()).toBe('')
    await page.getByTestId('new-memory').selectOption('off')
    expect(await page.getByTestId('new-memory-hint').textContent()).toBe('The run starts from the task alone, and leaves no memory.')
    await shot(page, 'memory-new-run.png')

    source = await startFromForm(page, 'Compile the Q3 sales report', '')
    const recalled = recalledMark(page)
    await recalled.waitFor()
    expect(await recalled.getByTestId('recalled-memory').count()).toBe(1)
    const why = await recalled.getByTestId('recalled-why').textContent()
    expect(why).toMatch(/matched q3, sale, report \(\d+% relevant to the task\)/)
    expect(why).toContain(earlier)
    expect(await page.getByTestId('start-memory').count()).toBe(0)
    await shot(page, 'memory-recalled-1280x720.png')

    const off = await startFromForm(page, 'Update the Q3 sales report', 'off')
    expect(await page.getByTestId('start-memory').textContent()).toBe('Memory: off for this run: nothing recalled, nothing kept')
    expect(await recalledMark(page).count()).toBe(0)
    const started = (await events(off)).find((e) => e.type === 'run.started')?.data as RunStartedData
    expect(started.memory).toEqual({ mode: 'off' })
    expect(await lastAsked()).not.toContain('1.2 million')
    await ctx.close()
  })

  it('forks with no memory by default, and with the memory as its source had it when asked, never the source’s own answer', async () => {
    await model.script([{ content: 'Forked without memory.' }, { content: 'Forked, reading memory.' }])
    const { ctx, page } = await openPage(browser, { width, height })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    await openRun(page, source)

    await fork(page, 'off')
    expect(await page.getByTestId('start-memory').textContent()).toBe('Memory: off for this run: nothing recalled, nothing kept')
    expect(await recalledMark(page).count()).toBe(0)
    expect(await lastAsked()).not.toMatch(/1,204,000|1\.2 million/)

    await openRun(page, source)
    const reading = await fork(page, 'read', 'memory-fork-dialog.png')
    const started = (await events(reading)).find((e) => e.type === 'run.started')?.data as RunStartedData
    const sourceStart = (await events(source))[0].time
    expect(started.memory).toEqual({ mode: 'read', as_of: sourceStart })
    expect(await page.getByTestId('start-memory').textContent()).toMatch(/^Memory: recalled only, nothing kept; only memories written before /)
    const recalled = (await events(reading)).find((e) => e.type === 'memory.recalled')?.data as MemoryRecalledData
    expect((recalled.entries ?? []).map((e) => e.run_id)).toEqual([earlier])
    expect(await recalledMark(page).getByTestId('recalled-memory').count()).toBe(1)
    const asked = await lastAsked()
    expect(asked).toContain('1.2 million')
    expect(asked).not.toContain('1,204,000')
    await shot(page, 'memory-fork-read-1280x720.png')

    // In Chinese: the start card and the dialog.
    await page.evaluate(() => localStorage.setItem('hermes.lang', 'zh-CN'))
    await page.reload()
    await page.getByTestId('start-memory').waitFor()
    expect(await page.getByTestId('start-memory').textContent()).toMatch(/^记忆：只召回，不保存；只用 .+ 之前写下的记忆$/)
    expect(await recalledMark(page).getByTestId('recalled-why').textContent()).toMatch(/与任务的相关度 \d+%/)
    await openRun(page, source)
    await firstCard(page).getByTestId('card-fork').click()
    expect(await page.getByTestId('fork-dialog').evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true)
    const options = await page.getByTestId('fork-memory').locator('option').allTextContents()
    expect(options).toEqual(['关闭：不用记忆，与源运行是同一个实验', '只读：源运行开始时的记忆', '开启：源运行开始时的记忆，并保存分叉验证过的内容'])
    await shot(page, 'memory-fork-dialog-zh.png')
    await ctx.close()
  })
})
