// End-to-end: the run page in a 1280×720 window, in English and Chinese.
// The header row's facts are whole (each value's text fits its element, and
// every one is there) for a plan run, a fork and a failed run; a stopped or
// failed run has Resume and Fork in the header; a panel opened gets the room
// its content needs over the timeline and keeps the height it is dragged
// to; the inspector's tabs are whole; and the page's words say what
// happened (an instructions-only edit, the completion check's counts, why an
// answer is unverified, a denial's reason, a failed call's error, a replay
// at its start, the time before the first iteration in the Waterfall).
// The fork, the failed run, the denial and the edit are live runs of a real
// `hermes serve` against the scripted model; the plan run's events are this
// file's, served for a run of the e2e home as layout.e2e.ts does.
// scripts/e2e.sh passes HERMES_BIN, HERMES_SCRIPTMODEL, HERMES_E2E_HOME and HERMES_E2E_EXPECTED.
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HermesEvent } from '../src/api/types'
import { planEvents } from '../src/lib/fixture'
import { controlTaken, env, launch, openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import { serve, type Served } from './serve'

const width = 1280
const height = 720
const locales = [
  { locale: 'en-US', lang: 'en' },
  { locale: 'zh-CN', lang: 'zh' },
] as const

const homeRun = (JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as { run_id: string; task: string }[])[0]

let browser: Browser
let home: Served
let live: Live | undefined

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })

beforeAll(async () => {
  home = await serve(env('HERMES_BIN'), env('HERMES_E2E_HOME'))
  browser = await launch()
  live = await startLive({
    prefix: 'hermes-e2e-runpage-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 8\nstrategy = "react"\nroute = false\n\n[tools.risk]\nwrite = "ask"\n`,
  })
})

afterAll(async () => {
  await browser?.close()
  expect(await home?.stop()).toBe(0)
  await live?.stop()
})

// untilEnd reads a live run's event stream until the server says its leg is over.
async function untilEnd(runId: string): Promise<void> {
  const res = await live!.served.api('GET', `/api/runs/${runId}/stream?after=0`)
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while (!/^event: end$/m.test(text)) {
    const { value, done } = await reader.read()
    if (done) break
    text += value
  }
  await reader.cancel()
}

async function startRun(task: string, body: object = {}): Promise<string> {
  const res = await live!.served.api('POST', '/api/runs', { task, workspace: live!.workspace, ...body })
  expect(res.status).toBe(201)
  return ((await res.json()) as { run_id: string }).run_id
}

async function openRun(page: Page, served: Served, runId: string): Promise<void> {
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('iteration-card').first().waitFor()
}

// openEvents opens the e2e home's first run with events of this file instead of its own.
async function openEvents(page: Page, events: HermesEvent[]): Promise<void> {
  await page.route(`**/api/runs/${homeRun.run_id}/events*`, (route) => route.fulfill({ json: events }))
  await openRun(page, home, homeRun.run_id)
}

const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)

// openPanel opens panel id unless it is open already.
async function openPanel(page: Page, id: string): Promise<void> {
  const toggle = page.getByTestId(`panel-toggle-${id}`)
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
}

// shownWhole says whether all of the element is drawn: inside the window and
// inside every box around it that clips or scrolls what it holds.
const shownWhole = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect()
    if (r.height === 0 || r.top < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) return false
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a)
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue
      const b = a.getBoundingClientRect()
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5) return false
    }
    return true
  })

interface Fact {
  label: string
  value: string
  /** The value's or the label's text is wider than its element, or the fact is outside the row. */
  cut: boolean
}

// facts reads the header row's facts and whether each is shown whole.
async function facts(page: Page): Promise<{ facts: Fact[]; rowCut: boolean }> {
  return page.getByTestId('run-meta').evaluate((row) => {
    const r = row.getBoundingClientRect()
    const facts = [...row.querySelectorAll<HTMLElement>('.meta')].map((m) => {
      const dt = m.querySelector('dt')!
      const dd = m.querySelector('dd')!
      const b = m.getBoundingClientRect()
      const cut =
        dd.scrollWidth > dd.clientWidth + 0.5 || dt.scrollWidth > dt.clientWidth + 0.5 || dd.clientWidth === 0 || b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.bottom > r.bottom + 0.5
      return { label: dt.textContent ?? '', value: (dd.textContent ?? '').trim(), cut }
    })
    return { facts, rowCut: row.scrollWidth > row.clientWidth + 0.5 }
  })
}

// expectWhole holds the header row to every fact whole and each expected value there.
async function expectWhole(page: Page, want: Record<string, string>): Promise<void> {
  const got = await facts(page)
  expect(got.rowCut).toBe(false)
  expect(got.facts.filter((f) => f.cut)).toEqual([])
  for (const f of got.facts) expect(f.value, f.label).not.toBe('')
  const values = Object.fromEntries(got.facts.map((f) => [f.label, f.value]))
  for (const [label, value] of Object.entries(want)) expect(values[label], label).toContain(value)
}

// Labels of the header row in each language.
const labels = {
  en: { model: 'Model', workspace: 'Workspace', iterations: 'Iterations', tools: 'Tool calls', stages: 'Tokens by stage', forked: 'Forked from', duration: 'Duration', tokens: 'Tokens' },
  zh: { model: '模型', workspace: '工作区', iterations: '迭代', tools: '工具调用', stages: '各阶段令牌', forked: '分叉自', duration: '耗时', tokens: '令牌' },
}

// A plan run as it comes from a long real one: its model and workspace as
// the e2e's, a minute of work, tokens in every stage.
function planRun(answer = 'ORD-7731 shipped on 2026-11-04.', workspace = '/tmp/hermes-e2e-compare-EZZHzJ/workspace'): HermesEvent[] {
  const start = Date.parse('2026-11-30T01:35:00Z')
  return planEvents.map((e, i) => {
    const data = { ...(e.data as object) } as Record<string, unknown>
    if (e.type === 'run.started') Object.assign(data, { model: 'llmtest-model', workspace })
    if (e.type === 'model.decided' && data.final_answer) data.final_answer = answer
    if (e.type === 'run.finished') {
      data.answer = answer
      data.totals = { ...(data.totals as object), total_tokens: 61_234, stage_tokens: { route: 168, plan: 1_234, decide: 48_800, evaluate: 7_032, answer: 4_000 } }
    }
    return { ...e, run_id: homeRun.run_id, time: new Date(start + i * 3_000 + (e.type === 'run.finished' ? 6_200 : 0)).toISOString(), data }
  })
}

describe('the header row at 1280×720', () => {
  let fork = ''
  let failed = ''

  beforeAll(async () => {
    const { model } = live!
    // A source run of two turns, and its fork at #2.
    await model.script([
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: '.' })], usage: { prompt_tokens: 21_000, completion_tokens: 400 } },
      { content: 'Listing again.', tool_calls: [call('c2', 'list_files', { path: '.' })], usage: { prompt_tokens: 22_000, completion_tokens: 300 } },
      { content: 'The folder is empty.' },
    ])
    const source = await startRun('List the folder')
    await untilEnd(source)
    await model.script([
      { content: 'Listing once more.', tool_calls: [call('f1', 'list_files', { path: '.' })], usage: { prompt_tokens: 23_000, completion_tokens: 500 } },
      { content: 'Still empty.', usage: { prompt_tokens: 24_000, completion_tokens: 200 } },
    ])
    const res = await live!.served.api('POST', `/api/runs/${source}/fork`, { iteration: 2 })
    expect(res.status).toBe(201)
    fork = ((await res.json()) as { run_id: string }).run_id
    await untilEnd(fork)
    // A run that fails at its second turn: the endpoint refuses the request.
    await model.script([
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: '.' })], usage: { prompt_tokens: 31_100, completion_tokens: 900 } },
      { status: 400, content: 'This model’s maximum context length is 32768 tokens; your messages resulted in 40960 tokens.' },
    ])
    failed = await startRun('Summarise every file of the folder')
    await untilEnd(failed)
  })

  for (const { locale, lang } of locales) {
    const l = labels[lang]

    it(`shows every fact of a plan run whole (${locale})`, async () => {
      const { ctx, page } = await openPage(browser, { locale, width, height })
      await openEvents(page, planRun())
      await page.getByTestId('plan-panel').waitFor()
      await expectWhole(page, {
        [l.model]: 'llmtest-model',
        [l.workspace]: '/tmp/hermes-e2e-compare-EZZHzJ/workspace',
        [l.iterations]: '5',
        [l.tools]: '3',
        [l.duration]: 's',
        [l.stages]: lang === 'en' ? 'route 168 · plan 1,234 · decide 48.8K · evaluate 7,032 · answer 4,000' : '路由 168',
      })
      // docs/run-1280x720.png is runpage-header-plan-en.png.
      await shot(page, `runpage-header-plan-${lang}.png`)
      await ctx.close()
    })

    it(`shows every fact of a fork whole (${locale})`, async () => {
      const { ctx, page } = await openPage(browser, { locale, width, height })
      await openRun(page, live!.served, fork)
      await expectWhole(page, {
        [l.model]: 'llmtest-model',
        [l.workspace]: live!.workspace,
        [l.iterations]: '2',
        [l.tools]: '1',
        [l.forked]: '#2',
      })
      await shot(page, `runpage-header-fork-${lang}.png`)
      await ctx.close()
    })

    it(`shows every tab of the inspector whole (${locale})`, async () => {
      const { ctx, page } = await openPage(browser, { locale, width, height })
      await openRun(page, live!.served, fork)
      // Beside source makes six tabs: each is whole, inside the inspector.
      const tabs = await page
        .getByTestId('inspector')
        .evaluate((ins) => [...ins.querySelectorAll<HTMLElement>('[role="tab"]')].map((b) => ({ text: b.textContent, whole: b.scrollWidth <= b.clientWidth + 0.5 && b.getBoundingClientRect().right <= ins.getBoundingClientRect().right + 0.5 && b.getBoundingClientRect().height < 40 })))
      expect(tabs).toHaveLength(6)
      expect(tabs.filter((x) => !x.whole)).toEqual([])
      await ctx.close()
    })

    it(`shows every fact of a failed run whole (${locale})`, async () => {
      const { ctx, page } = await openPage(browser, { locale, width, height })
      await openRun(page, live!.served, failed)
      await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('failed')
      await expectWhole(page, { [l.model]: 'llmtest-model', [l.workspace]: live!.workspace, [l.iterations]: '2', [l.tools]: '1', [l.tokens]: lang === 'en' ? '32K' : '3.2万' })
      await shot(page, `runpage-header-failed-${lang}.png`)
      await ctx.close()
    })

    it(`has Resume and Fork in the header of a failed run (${locale})`, async () => {
      const { ctx, page } = await openPage(browser, { locale, width, height })
      await openRun(page, live!.served, failed)
      await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('failed')
      // Resume and Fork stand in the header, whole, not in the panel that says where the run stopped.
      for (const id of ['resume-run', 'fork', 'replay']) {
        const b = page.locator(`.run-head [data-testid="${id}"]`)
        expect(await b.count(), id).toBe(1)
        const box = (await b.boundingBox())!
        expect(box.x + box.width, id).toBeLessThanOrEqual(width)
        expect(await b.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5), id).toBe(true)
      }
      expect(await page.getByTestId('run-outcome').locator('button:not(.panel-toggle)').count()).toBe(0)
      // The sandbox badge stays in the header.
      expect(await page.locator('.run-head [data-testid="run-sandbox"]').count()).toBe(1)
      await ctx.close()
    })
  }
})

describe('the panels at 1280×720', () => {
  const answer = ['## Orders', '', '| order | status | shipped |', '|---|---|---|', '| ORD-7731 | shipped | 2026-11-04 |', '| ORD-7730 | shipped | 2026-10-28 |', '| ORD-7729 | returned | 2026-10-02 |'].join('\n')

  it('opens one over the timeline at the height its content needs, and keeps the height it is dragged to', async () => {
    const { ctx, page } = await openPage(browser, { width, height })
    await openEvents(page, planRun(answer))
    const timeline = (await page.getByTestId('timeline').boundingBox())!
    expect(timeline.height / height).toBeGreaterThanOrEqual(0.55)
    // The answer opened: its table whole, in the window; the budget chart too.
    await openPanel(page, 'answer')
    await page.getByTestId('answer-text').locator('table').evaluate((el) => el.setAttribute('data-testid', 'answer-table'))
    expect(await shownWhole(page, 'answer-table')).toBe(true)
    await openPanel(page, 'budget')
    expect(await shownWhole(page, 'chart-svg')).toBe(true)
    expect((await page.getByTestId('chart-svg').boundingBox())!.height).toBeGreaterThanOrEqual(60)
    await page.getByTestId('panel-toggle-budget').click()

    // Until one is opened, only their headers stand above the timeline, each with its summary.
    expect(await page.getByTestId('panel-summary-answer').textContent()).toBe('Orders')
    expect(await page.getByTestId('panel-summary-plan').textContent()).toBe('3 of 3 steps passed')
    expect(await page.getByTestId('panel-summary-budget').textContent()).toMatch(/^peak /)
    expect(await page.locator('.panel-sheet').count()).toBe(0)

    // The answer: its body as tall as its content.
    await page.getByTestId('panel-toggle-answer').click()
    const body = page.getByTestId('panel-body-answer')
    expect(await body.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true)
    const table = (await page.getByTestId('answer-text').locator('table').boundingBox())!
    const sheet = (await page.getByTestId('panel-sheet-answer').boundingBox())!
    expect(table.y + table.height).toBeLessThanOrEqual(sheet.y + sheet.height)
    expect(sheet.y + sheet.height).toBeLessThanOrEqual(height)
    expect(await page.getByTestId('answer-text').locator('tr').count()).toBe(4)
    // docs/run-panel-1280x720.png is this one.
    await shot(page, 'runpage-answer-open.png')

    // The budget chart: one open at a time, the chart drawn to its height.
    await page.getByTestId('panel-toggle-budget').click()
    expect(await page.getByTestId('panel-sheet-answer').count()).toBe(0)
    const chart = (await page.getByTestId('chart-svg').boundingBox())!
    expect(chart.height).toBeGreaterThanOrEqual(60)
    expect(chart.y + chart.height).toBeLessThanOrEqual(height)
    expect(await page.getByTestId('panel-body-budget').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true)
    // The timeline keeps its place under it.
    expect((await page.getByTestId('timeline').boundingBox())!.height).toBeCloseTo(timeline.height, 0)

    // Dragged 80 px lower, it keeps that height, on the next visit too.
    const before = (await page.getByTestId('panel-body-budget').boundingBox())!.height
    const handle = (await page.getByTestId('panel-resize-budget').boundingBox())!
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 + 40, { steps: 4 })
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 + 80, { steps: 4 })
    await page.mouse.up()
    const dragged = (await page.getByTestId('panel-body-budget').boundingBox())!.height
    expect(Math.abs(dragged - (before + 80))).toBeLessThanOrEqual(2)
    await shot(page, 'runpage-budget-open.png')
    await page.reload()
    await page.getByTestId('panel-body-budget').waitFor()
    expect(Math.abs((await page.getByTestId('panel-body-budget').boundingBox())!.height - dragged)).toBeLessThanOrEqual(1)

    // The plan, whole; Esc closes it and the page remembers none open.
    await page.getByTestId('panel-toggle-plan').click()
    expect(await page.getByTestId('plan-step').count()).toBe(3)
    expect(await page.getByTestId('panel-body-plan').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true)
    await page.locator('body').press('Escape')
    expect(await page.locator('.panel-sheet').count()).toBe(0)
    await page.reload()
    await page.getByTestId('run-panels').waitFor()
    expect(await page.locator('.panel-sheet').count()).toBe(0)
    await ctx.close()
  })
})

describe('the words of the run page', () => {
  it('names an instructions-only edit as such (en, zh-CN)', async () => {
    const { model } = live!
    await model.script([
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: '.' })], hold: true },
      { content: 'Empty.' },
    ])
    const runId = await startRun('List the folder', { instructions: 'Be brief' })
    const { ctx, page } = await openPage(browser, { width, height })
    await openRun(page, live!.served, runId)
    await expect.poll(async () => (await model.state()).waiting).toBe(1)
    const pauseTaken = controlTaken(page, runId)
    await page.getByTestId('pause').click()
    await pauseTaken
    await model.release()
    await expect.poll(() => page.getByTestId('run-state').getAttribute('data-state')).toBe('paused')
    await page.getByTestId('edit').click()
    await page.getByTestId('edit-instructions').fill('Answer in one word')
    await page.getByTestId('edit-save-resume').click()
    await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('finished')
    const edited = page.locator('[data-testid="mark"][data-kind="task_edited"]')
    expect(await edited.locator('.mark-label').textContent()).toBe('✎ Instructions edited')
    expect(await edited.getByTestId('task-diff').count()).toBe(0)
    await page.evaluate(() => localStorage.setItem('hermes.lang', 'zh-CN'))
    await page.reload()
    await edited.waitFor()
    expect(await edited.locator('.mark-label').textContent()).toBe('✎ 指令已修改')
    await ctx.close()
  })

  it('gives a denial’s reason and a failed call’s error once, with no second full stop', async () => {
    const { model } = live!
    await model.script([
      // An invalid call (no path), and a write the person denies.
      { content: 'Reading and writing.', tool_calls: [call('r1', 'read_file', {}), call('w1', 'write_file', { path: 'x.txt', content: 'x' })] },
      { content: 'Neither worked.' },
    ])
    const runId = await startRun('Copy the notes')
    const { ctx, page } = await openPage(browser, { width, height })
    await openRun(page, live!.served, runId)
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor()
    await dialog.getByTestId('deny-reason').fill('Not now.')
    await dialog.getByTestId('deny').click()
    await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('finished')
    const invalid = card(page, 1).locator('[data-testid="call"][data-call-id="r1"]')
    const denied = card(page, 1).locator('[data-testid="call"][data-call-id="w1"]')
    await expect.poll(() => denied.getAttribute('data-status')).toBe('denied')
    const reason = (await invalid.locator('.call-error').innerText()).trim()
    expect(reason).not.toBe('')
    const invalidText = await invalid.innerText()
    const deniedText = await denied.innerText()
    expect({
      invalidReasons: invalidText.split(reason).length - 1,
      deniedReasons: deniedText.split('Not now').length - 1,
      secondFullStop: deniedText.includes('Not now..'),
    }).toEqual({ invalidReasons: 1, deniedReasons: 1, secondFullStop: false })
    await shot(page, 'runpage-denied.png')
    await ctx.close()
  })

  it.each(locales)('counts the required steps passed, not every step passed ($locale)', async ({ locale, lang }) => {
    const { ctx, page } = await openPage(browser, { locale, width, height })
    // Two required steps and an optional one passed: the check sends 3 passed of 2 required.
    const events = planRun().map((e) => {
      if (e.type === 'plan.created') return { ...e, data: { ...(e.data as object), steps: (e.data as { steps: object[] }).steps.map((s, i) => ({ ...s, required: i < 2 })) } }
      if (e.type === 'completion.checked' && (e.data as { passed: boolean }).passed) return { ...e, data: { ...(e.data as object), steps_passed: 3, steps_required: 2 } }
      return e
    })
    await openEvents(page, events)
    await openPanel(page, 'plan')
    const check = page.getByTestId('plan-panel').getByTestId('plan-completion')
    expect(await check.textContent()).not.toContain(lang === 'en' ? '3 of 2' : '3/2')
    expect(await check.textContent()).toContain(lang === 'en' ? 'Completion check passed: 2 of 2 required steps passed' : '完成检查通过：必需步骤已通过 2/2')
    await ctx.close()
  })

  it.each(locales)('says why an answer is unverified, and counts no steps without a plan ($locale)', async ({ locale, lang }) => {
    const { ctx, page } = await openPage(browser, { locale, width, height })
    // A plan run that made no plan, recorded live (route, decision, check),
    // and a call denied earlier and never done since, as the loop's guard says.
    const guard = 'the answer was given while these calls had been denied, refused or failed and their tools never succeeded afterwards: write_file (denied); it is marked unverified'
    const noPlan: HermesEvent[] = [
      { v: 1, run_id: homeRun.run_id, seq: 1, time: '2026-12-05T10:18:48.907Z', iteration: 0, type: 'run.started', data: { task: 'Look at the files', workspace: '/w', model: 'llmtest-model' } },
      { v: 1, run_id: homeRun.run_id, seq: 2, time: '2026-12-05T10:18:48.913Z', iteration: 0, type: 'route.decided', data: { route: 'loop', by: 'rules', reason: 'the message asks for something only tools can do' } },
      { v: 1, run_id: homeRun.run_id, seq: 3, time: '2026-12-05T10:18:53.799Z', iteration: 1, type: 'model.decided', data: { final_answer: 'Done: nothing to do.', latency_ms: 203, stage: 'deciding' } },
      { v: 1, run_id: homeRun.run_id, seq: 4, time: '2026-12-05T10:18:53.908Z', iteration: 1, type: 'completion.checked', data: { passed: true, steps_passed: 0, steps_required: 0, confidence: 0.9, reason: 'the answer is plain', threshold: 0.8, latency_ms: 108 } },
      { v: 1, run_id: homeRun.run_id, seq: 5, time: '2026-12-05T10:18:53.909Z', iteration: 1, type: 'guard.tripped', data: { guard: 'unverified_answer', action: 'warn', message: guard } },
      { v: 1, run_id: homeRun.run_id, seq: 6, time: '2026-12-05T10:18:53.915Z', iteration: 1, type: 'run.finished', data: { status: 'finished', answer: 'Done: nothing to do.', verified: false, confidence: 0.9 } },
    ]
    await openEvents(page, noPlan)
    const line = card(page, 1).getByTestId('plan-completion')
    expect(await line.textContent()).not.toMatch(/0 of 0|0\/0/)
    expect(await line.textContent()).toContain(lang === 'en' ? 'Completion check passed: confidence 90%' : '完成检查通过：置信度 90%')
    await openPanel(page, 'answer')
    const unverified = page.getByTestId('run-answer').locator('.warn')
    expect(await unverified.textContent()).toBe(lang === 'en' ? `Unverified: ${guard}` : `未经验证：${guard}`)
    await ctx.close()
  })

  it('names the run at its replay’s first event', async () => {
    const { ctx, page } = await openPage(browser, { width, height })
    await openRun(page, home, homeRun.run_id)
    await page.getByTestId('replay').click()
    await page.getByTestId('replay-bar').waitFor()
    await page.getByTestId('replay-scrubber').fill('0')
    await expect.poll(() => page.getByTestId('replay-position').textContent()).toMatch(/^event 0 of /)
    expect(await page.getByTestId('run-title').textContent()).not.toBe('(no task)')
    expect(await page.getByTestId('run-title').getAttribute('title')).toContain(homeRun.task)
    await ctx.close()
  })

  it('draws the time before the first iteration in the Waterfall: the plan’s failed call and a pause', async () => {
    const { ctx, page } = await openPage(browser, { width, height })
    // Recorded from a live plan run: the plan's call is answered 503, retried,
    // twice not JSON; the person paused the run before #1 for 2.4 s.
    const recorded: [number, string, number, string, unknown][] = [
      [1, '2026-12-05T10:18:48.907541501Z', 0, 'run.started', { task: 'Look at the files', workspace: '/w', model: 'llmtest-model' }],
      [2, '2026-12-05T10:18:48.913587442Z', 0, 'route.decided', { route: 'loop', by: 'rules', reason: 'the message asks for something only tools can do' }],
      [3, '2026-12-05T10:18:48.91586769Z', 0, 'model.retried', { attempt: 1, wait_ms: 1000, error: 'HTTP 503: overloaded', stage: 'planning' }],
      [4, '2026-12-05T10:18:51.169418976Z', 0, 'guard.tripped', { guard: 'plan', action: 'warn', stage: 'planning', message: 'no usable plan could be made' }],
      [5, '2026-12-05T10:18:51.169473562Z', 0, 'checkpoint.saved', {}],
      [6, '2026-12-05T10:18:51.169666109Z', 0, 'run.paused', { at: 'boundary' }],
      [7, '2026-12-05T10:18:53.595454768Z', 0, 'run.resumed', {}],
      [8, '2026-12-05T10:18:53.595474756Z', 1, 'iteration.started', {}],
      [11, '2026-12-05T10:18:53.799799481Z', 1, 'model.decided', { final_answer: 'Done: nothing to do.', latency_ms: 203, attempts: 1, stage: 'deciding' }],
      [15, '2026-12-05T10:18:53.915096301Z', 1, 'run.finished', { status: 'finished', answer: 'Done: nothing to do.', verified: true }],
    ]
    await openEvents(
      page,
      recorded.map(([seq, time, iteration, type, data]) => ({ v: 1, run_id: homeRun.run_id, seq, time, iteration, type, data })),
    )
    await page.getByTestId('tab-waterfall').click()
    const row = page.locator('[data-testid="wf-row"][data-iteration="0"]')
    await row.waitFor()
    expect(await row.locator('.wf-label').textContent()).toMatch(/^Start /)
    const bars = await row.getByTestId('wf-bar').evaluateAll((els) => els.map((el) => [(el as HTMLElement).dataset.kind, (el as HTMLElement).dataset.status, el.getAttribute('title')]))
    expect(bars.map(([kind, status]) => [kind, status])).toEqual([
      ['retry', 'retried'],
      ['stage', 'failed'],
      ['pause', 'resumed'],
    ])
    expect(bars[1][2]).toMatch(/^plan \(stage call\) · 1\.25 s/)
    expect(bars[2][2]).toMatch(/^between iterations \(paused by a person\) · 2\.43 s/)
    await shot(page, 'runpage-waterfall-start.png')
    await ctx.close()
  })
})
