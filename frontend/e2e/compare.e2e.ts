// End-to-end: the compare views of the run page. A real `hermes serve` runs
// the real loop against the scripted model: a run reads two notes, and a
// fork from its iteration 2 reads another; the page compares two of the
// run's iterations word by word and sets the fork beside its source.
// scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel } from './model'
import type { Served } from './serve'

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string
let source = ''
let fork = ''

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })
const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)

// untilEnd reads the run's event stream until the server says its leg is over.
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

async function openRun(page: Page, runId: string): Promise<void> {
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('iteration-card').first().waitFor()
}

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-compare-',
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, 'notes'), { recursive: true })
      writeFileSync(join(workspace, 'notes', 'monday.md'), '# Monday\nShip the timeline.\n')
      writeFileSync(join(workspace, 'notes', 'tuesday.md'), '# Tuesday\nReview the fork.\n')
      writeFileSync(join(workspace, 'notes', 'wednesday.md'), '# Wednesday\nWrite the docs.\n')
    },
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 8\nstrategy = "react"\nroute = false\n`,
  })
  ;({ browser, served, model, workspace } = live)

  await model.script([
    { content: 'Reading Monday.', tool_calls: [call('c1', 'read_file', { path: 'notes/monday.md' })] },
    { content: 'Reading Tuesday.', tool_calls: [call('c2', 'read_file', { path: 'notes/tuesday.md' })] },
    { content: 'Monday ships the timeline; Tuesday reviews the fork.' },
  ])
  let res = await served.api('POST', '/api/runs', { task: 'Read the week’s notes', workspace })
  expect(res.status).toBe(201)
  source = ((await res.json()) as { run_id: string }).run_id
  await untilEnd(source)

  // The fork asks again at iteration 2 and reads Wednesday instead.
  await model.script([
    { content: 'Reading Wednesday.', tool_calls: [call('f1', 'read_file', { path: 'notes/wednesday.md' })] },
    { content: 'Monday ships the timeline; Wednesday writes the docs.' },
  ])
  res = await served.api('POST', `/api/runs/${source}/fork`, { iteration: 2 })
  expect(res.status).toBe(201)
  fork = ((await res.json()) as { run_id: string }).run_id
  await untilEnd(fork)
})

afterAll(() => live?.stop())

describe('compare two iterations', () => {
  it('shows the word that changed between the decisions, and what the second request added', async () => {
    const { ctx, page } = await openPage(browser)
    await openRun(page, source)
    await card(page, 2).locator('.card-head').click()
    await page.getByTestId('tab-compare').click()
    const compare = page.getByTestId('compare')
    await compare.waitFor()
    // B is the selected card, A the one before it until picked.
    expect(await compare.getAttribute('data-b')).toBe('2')
    expect(await compare.getAttribute('data-a')).toBe('1')
    const decision = page.getByTestId('compare-decision-diff')
    expect(await decision.getByTestId('diff-removed').allTextContents()).toEqual(['Monday', 'monday'])
    expect(await decision.getByTestId('diff-added').allTextContents()).toEqual(['Tuesday', 'tuesday'])
    // The second request holds the first's messages and adds the call and its result.
    expect(await page.getByTestId('compare-counts').textContent()).toMatch(/^[1-9]\d* added, 0 removed, 0 edited, [1-9]\d* the same$/)

    // Any two: A from the select, B from the cards.
    await page.getByTestId('compare-a').selectOption('1')
    await card(page, 3).locator('.card-head').click()
    await expect.poll(() => compare.getAttribute('data-b')).toBe('3')
    expect((await decision.getByTestId('diff-added').allTextContents()).join('')).toContain('ships the timeline')
    await shot(page, 'compare-iterations.png')
    await ctx.close()
  })
})

describe('the inspector’s messages', () => {
  it('are in one scroll, each as tall as it is, folded by role', async () => {
    const { ctx, page } = await openPage(browser)
    await openRun(page, source)
    await card(page, 2).locator('.card-head').click()
    const messages = page.getByTestId('messages').getByTestId('message')
    await expect.poll(() => messages.count()).toBeGreaterThanOrEqual(4)
    // No message is a box of its own with a scrollbar.
    expect(await page.locator('.inspector .message-content').first().evaluate((el) => [getComputedStyle(el).maxHeight, getComputedStyle(el).overflowY])).toEqual(['none', 'visible'])
    const open = (role: string) => page.locator(`[data-testid="message"][data-role="${role}"] > details`).first().evaluate((el) => (el as HTMLDetailsElement).open)
    expect([await open('system'), await open('tool')]).toEqual([true, true])
    await page.locator('[data-testid="role-toggle"][data-role="system"]').click()
    expect([await open('system'), await open('tool')]).toEqual([false, true])
    await ctx.close()
  })
})

describe('a fork beside its source', () => {
  it('aligns the two timelines at the fork point and marks the iterations that differ', async () => {
    const { ctx, page } = await openPage(browser, { width: 1440, height: 900 })
    await openRun(page, fork)
    // The fork's #1 is the source's #2, and the card says so.
    expect(await card(page, 1).getByTestId('card-source-n').textContent()).toBe('≙ #2')
    expect(await page.getByTestId('forked-from').textContent()).toContain('Forked from #2 of')
    await card(page, 1).locator('.card-head').click()
    await page.getByTestId('tab-fork').click()
    const rows = page.getByTestId('fork-row')
    await expect.poll(() => rows.count()).toBe(3)
    const row = async (i: number) => {
      const r = rows.nth(i)
      return [await r.getAttribute('data-kind'), await r.getAttribute('data-source'), await r.getAttribute('data-fork'), await r.getAttribute('data-differs')]
    }
    expect(await row(0)).toEqual(['shared', '1', '', 'false'])
    expect(await row(1)).toEqual(['point', '2', '1', 'true'])
    expect(await row(2)).toEqual(['after', '3', '2', 'true'])
    expect(await page.getByTestId('fork-summary').textContent()).toContain('2 of 2 iterations after the fork differ')
    await shot(page, 'fork-beside-source.png')

    // The source's card links its fork, and the runs list names the parent.
    await page.getByTestId('fork-source-link').click()
    await page.locator(`[data-testid="run-page"][data-run-id="${source}"]`).waitFor()
    await expect.poll(() => card(page, 2).getByTestId('card-fork-link').count()).toBe(1)
    await page.getByTestId('run-back').click()
    const forkRow = page.locator(`[data-testid="run-row"][data-run-id="${fork}"]`)
    expect(await forkRow.getByTestId('run-fork-of').textContent()).toBe('Fork of Read the week’s notes #2')
    await ctx.close()
  })
})
