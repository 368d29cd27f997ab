// End-to-end: where the time and the money went. A real `hermes serve` runs
// the real loop against the scripted model, whose delays before the first
// token and between chunks are set by the script and whose usage is given;
// hermes.toml prices the model. The Waterfall's bars must match the events'
// timings, and the cost on the page and in the runs list the price table.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HermesEvent } from '../src/api/types'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'

let live: Live | undefined
let browser: Browser

// Per million tokens; the model's usage is scripted, so the cost is known.
const price = { input: 2, cached_input: 0.5, output: 8 }
const usage1 = { prompt_tokens: 1000, cached_tokens: 400, completion_tokens: 200, total_tokens: 1200 }
const usage2 = { prompt_tokens: 1500, completion_tokens: 100, total_tokens: 1600 }
const costOf = (u: { prompt_tokens: number; cached_tokens?: number; completion_tokens: number }) =>
  ((u.prompt_tokens - (u.cached_tokens ?? 0)) * price.input + (u.cached_tokens ?? 0) * price.cached_input + u.completion_tokens * price.output) / 1e6
const cost1 = costOf(usage1) // 0.0030
const cost2 = costOf(usage2) // 0.0038

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-waterfall-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 5\nstrategy = "react"\nroute = false\n\n` +
      `[prices."llmtest-model"]\ninput = ${price.input}\ncached_input = ${price.cached_input}\noutput = ${price.output}\ncurrency = "USD"\n`,
  })
  browser = live.browser
})

afterAll(() => live?.stop())

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

const ms = (e: HermesEvent) => Date.parse(e.time)

interface Bar {
  kind: string
  name: string
  iteration: number
  start: number
  duration: number
}

async function bars(page: Page): Promise<Bar[]> {
  return page.getByTestId('wf-bar').evaluateAll((els) =>
    els.map((el) => {
      const d = (el as HTMLElement).dataset
      return { kind: d.kind ?? '', name: d.name ?? '', iteration: Number(d.iteration), start: Number(d.start), duration: Number(d.duration) }
    }),
  )
}

describe('the waterfall and the cost', () => {
  it('draws the model and tool times the events recorded, and prices the run as hermes.toml says', async () => {
    const { served, model, workspace } = live!
    await model.script([
      // 300 ms to the first token, then 2 chunks of text 60 ms apart and the call's pieces.
      { content: 'Listing first.', chunks: 3, delay_ms: 300, chunk_delay_ms: 60, tool_calls: [{ id: 'c1', name: 'list_files', arguments: '{"path":"."}' }], usage: usage1 },
      { content: 'The folder is empty.', delay_ms: 200, usage: usage2 },
    ])
    const res = await served.api('POST', '/api/runs', { task: 'What is in the folder?', workspace })
    expect(res.status).toBe(201)
    const runId = ((await res.json()) as { run_id: string }).run_id
    await untilEnd(runId)
    const events = (await (await served.api('GET', `/api/runs/${runId}/events`)).json()) as HermesEvent[]
    const origin = ms(events[0])
    const decided = events.filter((e) => e.type === 'model.decided')
    const d1 = decided[0].data as { latency_ms: number; first_token_ms: number; cost: number; currency: string }
    const d2 = decided[1].data as { latency_ms: number; first_token_ms: number; cost: number }
    // The scripted delays are in the events' timings.
    expect(d1.first_token_ms).toBeGreaterThanOrEqual(300)
    expect(d1.latency_ms - d1.first_token_ms).toBeGreaterThanOrEqual(2 * 60)
    expect(d2.first_token_ms).toBeGreaterThanOrEqual(200)
    expect(d1.cost).toBeCloseTo(cost1, 10)
    expect(d2.cost).toBeCloseTo(cost2, 10)
    expect(d1.currency).toBe('USD')
    const toolDone = events.find((e) => e.type === 'tool.finished')!
    const toolStart = events.find((e) => e.type === 'tool.started')!

    const { ctx, page } = await openPage(browser, { width: 1440, height: 900 })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)
    await expect.poll(() => row.getByTestId('run-cost').textContent()).toBe('$' + (cost1 + cost2).toFixed(4))
    await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
    await page.getByTestId('iteration-card').first().waitFor()
    expect(await page.getByTestId('run-cost').textContent()).toBe('$' + (cost1 + cost2).toFixed(4))
    await page.getByTestId('tab-waterfall').click()
    await page.getByTestId('waterfall').waitFor()
    await shot(page, 'waterfall.png')

    const got = await bars(page)
    const find = (iteration: number, kind: string) => got.find((b) => b.iteration === iteration && b.kind === kind)!
    // Each bar is where the events put it, to the millisecond (the page rounds).
    const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1)
    const start1 = ms(decided[0]) - d1.latency_ms - origin
    near(find(1, 'first_token').start, start1)
    near(find(1, 'first_token').duration, d1.first_token_ms)
    near(find(1, 'stream').start, start1 + d1.first_token_ms)
    near(find(1, 'stream').duration, d1.latency_ms - d1.first_token_ms)
    const tool = find(1, 'tool')
    expect(tool.name).toBe('list_files')
    near(tool.start, ms(toolStart) - origin)
    near(tool.duration, (toolDone.data as { duration_ms: number }).duration_ms)
    near(find(2, 'first_token').duration, d2.first_token_ms)
    near(find(2, 'stream').start + find(2, 'stream').duration, ms(decided[1]) - origin)
    // The bars are drawn in proportion on one axis: the first token bar of
    // iteration 1 is as wide, against the track, as its share of the run.
    const [bw, tw] = await page
      .locator('[data-testid="wf-bar"][data-kind="first_token"][data-iteration="1"]')
      .evaluate((el) => [el.getBoundingClientRect().width, el.parentElement!.getBoundingClientRect().width])
    // The axis runs to the run's last event (run.finished comes a moment after
    // the last bar ends, more so on a busy machine).
    const end = Math.max(ms(events.at(-1)!) - origin, ...got.map((b) => b.start + b.duration))
    expect(Math.abs(bw / tw - d1.first_token_ms / end)).toBeLessThan(0.02)

    // Costs: each turn's row, and the run's in the head.
    const rowCost = (n: number) => page.locator(`[data-testid="wf-row"][data-iteration="${n}"] [data-testid="wf-row-cost"]`).textContent()
    expect(await rowCost(1)).toBe('$' + cost1.toFixed(4))
    expect(await rowCost(2)).toBe('$' + cost2.toFixed(4))
    expect(await page.getByTestId('wf-total').textContent()).toContain('$' + (cost1 + cost2).toFixed(4))

    // Dense: one line per span, and a click selects that iteration's card.
    await page.getByTestId('wf-dense').click()
    expect(await page.getByTestId('wf-line').count()).toBe(got.length)
    await page.locator('[data-testid="wf-line"][data-iteration="1"]').first().click()
    await expect.poll(() => page.getByTestId('tab-timeline').getAttribute('aria-selected')).toBe('true')
    await expect.poll(() => page.locator('[data-testid="iteration-card"][data-iteration="1"]').getAttribute('class')).toContain('selected')

    // The budget chart marks the selected iteration, and says which count is
    // whose: hovering #1 shows Hermes's estimate beside the provider's prompt
    // tokens (the card's figure, from the scripted usage).
    await page.getByTestId('panel-toggle-budget').click()
    const chart = page.getByTestId('chart-svg')
    await expect.poll(() => page.getByTestId('chart-selected').getAttribute('data-iteration')).toBe('1')
    expect(await page.getByTestId('chart-note').textContent()).toContain('estimate')
    // On a wide window the panels stand beside the timeline, whole.
    await page.setViewportSize({ width: 1920, height: 1080 })
    const box = (await chart.boundingBox())!
    await chart.hover({ position: { x: box.width * 0.25, y: box.height / 2 } })
    const tip = (await page.getByTestId('chart-tip').textContent()) ?? ''
    expect(tip).toMatch(/^#1: .* estimated by Hermes · 1,000 prompt tokens by the provider/)
    await shot(page, 'budget-chart.png')
    // The inspector's budget of the same iteration says the same: its layers
    // are the estimate, and the provider's count is the card's.
    await page.getByTestId('tab-budget').click()
    const source = (await page.getByTestId('budget-source').textContent()) ?? ''
    expect(source).toContain('estimates')
    expect(source).toContain('1,000 prompt tokens')
    // The second request's estimate was scaled by what the provider counted
    // for the first, and says by how much.
    const built = events.filter((e) => e.type === 'context.built')
    const ratio = (built[1].data as { ratio: number }).ratio
    expect(ratio).toBeCloseTo(1000 / (built[0].data as { tokens: number }).tokens, 2)
    await page.locator('[data-testid="iteration-card"][data-iteration="2"] .card-head').click()
    await page.getByTestId('tab-budget').click()
    expect(await page.getByTestId('budget-source').textContent()).toContain(`×${ratio.toFixed(2)}`)
    await ctx.close()
  })
})
