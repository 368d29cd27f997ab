// End-to-end: the timeline is always in view. A react run and a plan run of
// 60 iterations, each with a short and a long (34-line Markdown) answer, are
// drawn by the built UI in headless Chromium at 1280×720, 1440×900 and
// 1920×1080; the timeline must keep at least 55% of the window's height,
// the wheel and the keys must reach its first and last cards; below 1600 px
// the panels open one at a time over it and from 1600 px they sit beside
// it, each remembering how it was left. The page talks to a real `hermes
// serve` on the e2e home; the run's events are this file's, as plan.e2e.ts
// does.
// scripts/e2e.sh passes HERMES_BIN, HERMES_E2E_HOME and HERMES_E2E_EXPECTED.
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HermesEvent } from '../src/api/types'
import { planEvents } from '../src/lib/fixture'
import { env, launch, openPage, shot } from './browser'
import { serve, type Served } from './serve'

/** The share of the window's height the timeline keeps, at least, whatever the panels hold. */
const minTimelineShare = 0.55
const iterations = 60

const runId = (JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as { run_id: string }[])[0].run_id

const shortAnswer = 'Read every line; nothing is missing.'
// A long answer as models write them, with what a page must not obey in it:
// raw HTML, a remote image (a tracker) and a script link.
const longAnswer = [
  '## Summary',
  '',
  'Every line of `lines.txt` was read and checked against the index.',
  '',
  ...Array.from({ length: 20 }, (_, i) => `- line ${i + 1}: **ok**, matches the index`),
  '',
  '```sh',
  'hermes runs show r1',
  '```',
  '',
  '<script>window.__pwned = 1</script>',
  '![tracker](http://127.0.0.1:9/track.png)',
  '[click me](javascript:window.__pwned=2) and [the docs](https://example.com/docs)',
  '',
  '> Nothing was left out.',
].join('\n')

function builder() {
  let seq = 0
  return (iteration: number, type: string, data: unknown): HermesEvent => {
    seq++
    return { v: 1, run_id: runId, seq, time: new Date(Date.UTC(2026, 10, 30, 1, 35, 0, seq * 10)).toISOString(), iteration, type, data }
  }
}

// reactRun is a run of iterations turns, each reading a line, then the answer.
function reactRun(answer: string): HermesEvent[] {
  const ev = builder()
  const out = [ev(0, 'run.started', { task: 'Check every line of lines.txt', workspace: '/w', model: 'm', max_iterations: 100, tools: ['read_file'] })]
  for (let n = 1; n <= iterations; n++) out.push(...turn(ev, n))
  out.push(
    ev(iterations + 1, 'iteration.started', {}),
    ev(iterations + 1, 'model.decided', { thought: 'Done.', final_answer: answer, usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 } }),
    ev(iterations + 1, 'run.finished', { status: 'finished', answer, verified: true, totals: { iterations: iterations + 1, total_tokens: 60000, tool_calls: iterations } }),
  )
  return out
}

// planRun is the plan fixture's route and plan, the same turns, and the answer.
function planRun(answer: string): HermesEvent[] {
  const ev = builder()
  const head = planEvents.filter((e) => e.iteration === 0).map((e) => ev(0, e.type, e.data))
  const out = [...head]
  for (let n = 1; n <= iterations; n++) out.push(...turn(ev, n, { stage: 'deciding', step: 1, step_status: 'continue', serves_goal: 'read the orders' }))
  out.push(
    ev(iterations + 1, 'model.decided', { stage: 'deciding', final_answer: answer }),
    ev(iterations + 1, 'completion.checked', { passed: true, steps_passed: 3, steps_required: 3, confidence: 0.9, reason: 'every step passed', threshold: 0.8 }),
    ev(iterations + 1, 'run.finished', { status: 'finished', answer, verified: true, confidence: 0.9, totals: { iterations: iterations + 1, total_tokens: 60000 } }),
  )
  return out
}

function turn(ev: ReturnType<typeof builder>, n: number, meta: object = {}): HermesEvent[] {
  const args = JSON.stringify({ path: 'lines.txt', offset_line: n, limit_lines: 1 })
  return [
    ev(n, 'iteration.started', {}),
    ev(n, 'context.built', { layers: { system: 300, tool_schemas: 500, recent: 20 * n }, tokens: 800 + 20 * n, window: 8000, budget_share: 0.1, message_count: 2 + 2 * n }),
    ev(n, 'model.decided', { ...meta, thought: `Reading line ${n}.`, tool_calls: [{ id: `c${n}`, name: 'read_file', arguments: args, valid: true }], usage: { prompt_tokens: 800, completion_tokens: 20, total_tokens: 820 } }),
    ev(n, 'tool.started', { call_id: `c${n}`, name: 'read_file', arguments: args, attempt: 1 }),
    ev(n, 'tool.finished', { call_id: `c${n}`, name: 'read_file', ok: true, result: `line ${n}`, size: 6, duration_ms: 2, attempt: 1 }),
  ]
}

let browser: Browser
let served: Served

beforeAll(async () => {
  served = await serve(env('HERMES_BIN'), env('HERMES_E2E_HOME'))
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  expect(await served?.stop()).toBe(0)
})

interface Box {
  x: number
  y: number
  width: number
  height: number
}

const box = async (page: Page, testId: string): Promise<Box> => {
  const b = await page.getByTestId(testId).boundingBox()
  if (!b) throw new Error(`${testId} is not drawn`)
  return b
}

// inView says whether card n is in the page and shows at least its first
// 40 px (or all of it, when shorter) inside the timeline's box; a card taller
// than the box counts when it fills it.
async function inView(page: Page, n: number): Promise<boolean> {
  const card = page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)
  if ((await card.count()) === 0) return false
  const c = await card.boundingBox()
  const t = await box(page, 'timeline')
  if (!c) return false
  const shown = Math.min(c.y + c.height, t.y + t.height) - Math.max(c.y, t.y)
  return shown >= Math.min(40, c.height) - 1
}

async function open(page: Page, events: HermesEvent[]): Promise<void> {
  await page.route(`**/api/runs/${runId}/events*`, (route) => route.fulfill({ json: events }))
  await page.goto(`${served.url}#/runs/${runId}`)
  await page.getByTestId('run-answer').waitFor()
  await page.locator('[data-testid="iteration-card"]').first().waitFor()
}

const sizes = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
]
const runs = [
  { kind: 'react', make: reactRun },
  { kind: 'plan', make: planRun },
]
const answers = [
  { length: 'short', text: shortAnswer },
  { length: 'long', text: longAnswer },
]
const cases = sizes.flatMap((size) => runs.flatMap((run) => answers.map((answer) => ({ ...size, ...run, ...answer }))))

describe('the run page layout', () => {
  for (const { width, height, kind, make, length, text } of cases)
    it(`keeps the timeline at ≥ ${Math.round(minTimelineShare * 100)}% of ${width}×${height} for a ${kind} run with a ${length} answer`, async () => {
      const { ctx, page } = await openPage(browser, { width, height })
      await open(page, make(text))
      if (kind === 'plan') await page.getByTestId('plan-panel').waitFor()

      const timeline = await box(page, 'timeline')
      expect(timeline.height / height).toBeGreaterThanOrEqual(minTimelineShare)
      // All of it is inside the window: nothing pushes it below the fold.
      expect(timeline.y + timeline.height).toBeLessThanOrEqual(height + 1)
      const panels = await box(page, 'run-panels')
      if (width >= 1600) expect(panels.x + panels.width).toBeLessThanOrEqual(timeline.x)
      else expect(panels.y + panels.height).toBeLessThanOrEqual(timeline.y)

      // The wheel reaches the last card and the first.
      await page.mouse.move(timeline.x + timeline.width / 2, timeline.y + timeline.height / 2)
      for (let i = 0; i < 60 && !(await inView(page, iterations + 1)); i++) await page.mouse.wheel(0, 2000)
      expect(await inView(page, iterations + 1)).toBe(true)
      for (let i = 0; i < 60 && !(await inView(page, 0)); i++) await page.mouse.wheel(0, -2000)
      expect(await inView(page, 0)).toBe(true)
      // So do the keys: End, then k and j step from there; Home goes back.
      await page.locator('body').press('End')
      await expect.poll(() => inView(page, iterations + 1)).toBe(true)
      await page.locator('body').press('k')
      await expect.poll(() => page.locator('.card.selected').getAttribute('data-iteration')).toBe(String(iterations))
      expect(await inView(page, iterations)).toBe(true)
      await page.locator('body').press('Home')
      await expect.poll(() => inView(page, 0)).toBe(true)
      await page.locator('body').press('j')
      await expect.poll(() => page.locator('.card.selected').getAttribute('data-iteration')).toBe('1')
      expect(await inView(page, 1)).toBe(true)
      await shot(page, `layout-${width}x${height}-${kind}-${length}.png`)
      await ctx.close()
    })

  it('above the timeline opens one panel at a time over it, and remembers which', async () => {
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await open(page, planRun(longAnswer))
    const before = await box(page, 'timeline')
    // None is open until the person opens one.
    for (const id of ['answer', 'plan', 'budget']) expect(await page.getByTestId(`panel-toggle-${id}`).getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByTestId('answer-text').count()).toBe(0)
    await page.getByTestId('panel-toggle-answer').click()
    await page.getByTestId('answer-text').waitFor()
    await page.getByTestId('panel-toggle-plan').click()
    expect(await page.getByTestId('panel-toggle-answer').getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByTestId('answer-text').count()).toBe(0)
    expect(await page.getByTestId('plan-steps').count()).toBe(1)
    // The timeline keeps its room under the panel.
    expect(await box(page, 'timeline')).toEqual(before)
    await page.reload()
    await page.getByTestId('run-answer').waitFor()
    expect(await page.getByTestId('panel-toggle-plan').getAttribute('aria-expanded')).toBe('true')
    expect(await page.getByTestId('panel-toggle-answer').getAttribute('aria-expanded')).toBe('false')
    await page.getByTestId('panel-toggle-plan').click()
    expect(await page.getByTestId('plan-steps').count()).toBe(0)
    await ctx.close()
  })

  it('beside the timeline collapses each panel, remembers it on the next visit, and gives the panels below the room', async () => {
    const { ctx, page } = await openPage(browser, { width: 1920, height: 1080 })
    await open(page, planRun(longAnswer))
    const before = await box(page, 'budget-chart')
    for (const id of ['answer', 'plan']) {
      await page.getByTestId(`panel-toggle-${id}`).click()
      expect(await page.getByTestId(`panel-toggle-${id}`).getAttribute('aria-expanded')).toBe('false')
    }
    expect(await page.getByTestId('answer-text').count()).toBe(0)
    expect(await page.getByTestId('plan-steps').count()).toBe(0)
    // The budget chart was left open, and moves up.
    expect(await page.getByTestId('budget-chart').count()).toBe(1)
    await page.reload()
    await page.getByTestId('run-answer').waitFor()
    expect(await page.getByTestId('panel-toggle-answer').getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByTestId('panel-toggle-plan').getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByTestId('panel-toggle-budget').getAttribute('aria-expanded')).toBe('true')
    expect((await box(page, 'budget-chart')).y).toBeLessThan(before.y)
    await ctx.close()
  })
})

describe('the answer as Markdown', () => {
  it.each([
    { locale: 'en-US', showAll: 'Show all (34 lines)' },
    { locale: 'zh-CN', showAll: '显示全部（34 行）' },
  ])('draws headings, lists and code, obeys no HTML, loads no image and collapses ($locale)', async ({ locale, showAll }) => {
    const { ctx, page } = await openPage(browser, { locale, width: 1440, height: 900 })
    const requested: string[] = []
    page.on('request', (r) => requested.push(r.url()))
    await open(page, reactRun(longAnswer))
    await page.getByTestId('panel-toggle-answer').click()
    const answer = page.getByTestId('answer-text')
    expect(await answer.getAttribute('data-collapsed')).toBe('true')
    expect(await answer.getByTestId('md-toggle').textContent()).toBe(showAll)
    await answer.getByTestId('md-toggle').click()
    expect(await answer.getAttribute('data-collapsed')).toBe('false')

    expect(await answer.locator('h2').textContent()).toBe('Summary')
    expect(await answer.locator('li').count()).toBe(20)
    expect(await answer.locator('pre code').textContent()).toBe('hermes runs show r1')
    expect(await answer.locator('pre code').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i)
    expect(await answer.locator('blockquote').textContent()).toContain('Nothing was left out.')
    // Raw HTML is text, run by nothing.
    expect(await answer.locator('script, img, iframe').count()).toBe(0)
    expect(await answer.textContent()).toContain('<script>window.__pwned = 1</script>')
    // The image is its alt text, linked, never fetched.
    expect(await answer.locator('.md-image').getAttribute('href')).toBe('http://127.0.0.1:9/track.png')
    expect(requested.some((u) => u.includes('track.png'))).toBe(false)
    // Links go only to the web, each in a new page that cannot reach this one.
    const links = await answer.locator('a').evaluateAll((els) => els.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel'), target: a.getAttribute('target') })))
    expect(links.map((l) => l.href)).toEqual(['http://127.0.0.1:9/track.png', 'https://example.com/docs'])
    for (const l of links) {
      expect(l.rel).toContain('noopener')
      expect(l.target).toBe('_blank')
    }
    await answer.getByText('click me').click()
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    await shot(page, `markdown-answer-${locale}.png`)
    await ctx.close()
  })
})
