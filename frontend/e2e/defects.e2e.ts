// End-to-end: the smaller defects of the run page, each seen once in
// Chromium or the desktop window, held in headless Chromium: one status
// badge, a finished run's replay (its status, its position in view), the
// title shown whole, a running card's timer, the wheel over a 300-iteration
// timeline, the favicon and the New run form. The past runs come from
// mkhome's home (HERMES_E2E_HOME); the live ones from the scripted model.
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlTaken, env, launch, openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import { serve, type Served } from './serve'

interface Expected {
  run_id: string
  task: string
  status: string
  iterations: number
  events: number
}

const expected = JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as Expected[]
// mkhome writes the run of 300 iterations last (the oldest).
const long = expected.at(-1)!

let browser: Browser
let served: Served
let live: Live | undefined

beforeAll(async () => {
  served = await serve(env('HERMES_BIN'), env('HERMES_E2E_HOME'))
  browser = await launch()
  live = await startLive({
    prefix: 'hermes-e2e-defects-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 8\nstrategy = "react"\nroute = false\n`,
  })
})

afterAll(async () => {
  await browser?.close()
  expect(await served?.stop()).toBe(0)
  await live?.stop()
})

async function openRun(page: Page, base: Served, runId: string): Promise<void> {
  await page.goto(base.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('iteration-card').first().waitFor()
}

const headText = (page: Page) => page.locator('.run-head').innerText()
const count = (text: string, word: string) => text.split(word).length - 1

/** timelineTop is the number of the first card whose bottom is below the timeline's top edge. */
const timelineTop = (page: Page) =>
  page.getByTestId('timeline').evaluate((box) => {
    const top = box.getBoundingClientRect().top
    const cards = [...box.querySelectorAll<HTMLElement>('[data-testid="iteration-card"]')]
    const first = cards.filter((c) => c.getBoundingClientRect().bottom > top + 1).sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]
    return Number(first?.dataset.iteration ?? -1)
  })

describe('the header', () => {
  it('has one badge while live, the running card a timer, and the title whole', async () => {
    const task = 'Read every note in the workspace, then write a summary of the week with the decisions taken and who took each one'
    await live!.model.script([{ content: 'Looking first.', tool_calls: [{ id: 'c1', name: 'list_files', arguments: '{"path":"."}' }], hold: true }])
    const res = await live!.served.api('POST', '/api/runs', { task, workspace: live!.workspace })
    expect(res.status).toBe(201)
    const runId = ((await res.json()) as { run_id: string }).run_id
    const { ctx, page } = await openPage(live!.browser, { width: 1280, height: 720 })
    await openRun(page, live!.served, runId)
    await expect.poll(async () => (await live!.model.state()).waiting).toBe(1)
    await expect.poll(() => page.getByTestId('run-state').getAttribute('data-state')).toBe('running')
    expect(await page.locator('.run-head [data-testid="run-status"]').count()).toBe(1)
    expect(count(await headText(page), 'Running')).toBe(1)

    // The title is all there: on two lines rather than one cut, and whole in its tooltip.
    const title = page.getByTestId('run-title')
    expect(await title.textContent()).toBe(task)
    expect(await title.getAttribute('title')).toBe(task)
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.clientHeight > 30)).toBe(true)

    // The card still going counts its time instead of saying 0 ms.
    const running = page.locator('[data-testid="iteration-card"][data-iteration="1"]')
    await running.getByTestId('card-elapsed').waitFor()
    expect(await running.getByTestId('card-duration').count()).toBe(0)

    await page.getByTestId('pause').click()
    await expect.poll(() => page.getByTestId('run-state').getAttribute('data-state')).toBe('pausing')
    expect(await page.locator('.run-head [data-testid="run-status"]').count()).toBe(1)
    expect(count(await headText(page), 'Running')).toBe(0)
    await shot(page, 'defects-one-badge.png')
    const stopTaken = controlTaken(page, runId)
    await page.getByTestId('stop').click()
    await stopTaken
    await live!.model.release()
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-status')).toBe('stopped')
    // A stopped run offers Resume once, in the header.
    expect(await page.locator('.run-head [data-testid="resume-run"]').count()).toBe(1)
    expect(await page.getByTestId('resume-run').count()).toBe(1)
    await ctx.close()
  })
})

describe('replay of a finished run', () => {
  it('keeps the run’s status and brings the card of its position into view', async () => {
    const { ctx, page } = await openPage(browser, { width: 1440, height: 900 })
    await openRun(page, served, long.run_id)
    await page.getByTestId('replay').click()
    await page.getByTestId('replay-bar').waitFor()
    await page.getByTestId('replay-scrubber').fill(String(Math.floor(long.events / 2)))
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe(long.status)
    expect(await headText(page)).not.toContain('Running')
    // The replay's card is selected and in view.
    const selected = page.locator('[data-testid="iteration-card"].selected')
    await selected.waitFor()
    const n = Number(await selected.getAttribute('data-iteration'))
    expect(n).toBeGreaterThan(long.iterations / 3)
    const inView = await selected.evaluate((el) => {
      const box = document.querySelector('[data-testid="timeline"]')!.getBoundingClientRect()
      const r = el.getBoundingClientRect()
      return r.bottom > box.top && r.top < box.bottom
    })
    expect(inView).toBe(true)
    await shot(page, 'defects-replay.png')
    await ctx.close()
  })
})

describe('the wheel over a long timeline', () => {
  it('scrolls the timeline by what the wheel asks, notch after notch, and nothing else', async () => {
    const { ctx, page } = await openPage(browser, { width: 1280, height: 800 })
    await openRun(page, served, long.run_id)
    const timeline = page.getByTestId('timeline')
    const box = (await timeline.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    const before = await timeline.evaluate((el) => el.scrollTop)
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, 100)
      // One notch a frame, as a hand turns it.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)))
    }
    await expect.poll(() => timeline.evaluate((el) => el.scrollTop)).toBeGreaterThan(before + 6000 * 0.9)
    const moved = (await timeline.evaluate((el) => el.scrollTop)) - before
    expect(moved).toBeLessThan(6000 * 1.1)
    // Nothing in a card is a scroll box of its own to take a notch.
    const boxes = await timeline.evaluate((el) => [...el.querySelectorAll('*')].filter((x) => ['auto', 'scroll'].includes(getComputedStyle(x).overflowY)).length)
    expect(boxes).toBe(0)
    // Nothing around the timeline took the wheel.
    expect(await page.evaluate(() => [window.scrollY, document.querySelector('.run-page')?.scrollTop ?? 0])).toEqual([0, 0])
    // The cards passed are what that distance holds.
    const avg = await timeline.evaluate((el) => {
      const cards = [...el.querySelectorAll<HTMLElement>('.card-slot')]
      return cards.reduce((s, c) => s + c.getBoundingClientRect().height + 8, 0) / cards.length
    })
    const top = await timelineTop(page)
    // The figures for the desktop window's notch (WebKitGTK: 40 px, Chromium's 100 px).
    console.log(`wheel: 60 notches moved ${moved} px; a card and its gap ${avg.toFixed(0)} px; top card #${top} of ${long.iterations}`)
    expect(Math.abs(top - moved / avg)).toBeLessThan(Math.max(4, (moved / avg) * 0.35))
    await ctx.close()
  })
})

describe('the app shell', () => {
  it('serves a favicon the page links', async () => {
    // Like every path, it is served to who holds the token.
    const res = await served.api('GET', '/favicon.svg')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('image/svg')
    const { ctx, page } = await openPage(browser)
    await page.goto(served.url)
    const href = await page.locator('link[rel="icon"]').evaluate((el) => (el as HTMLLinkElement).href)
    expect((await page.request.get(href)).status()).toBe(200)
    await ctx.close()
  })

  it('offers strategy and max iterations on the New run form, and the sample only to who has no model', async () => {
    const { ctx, page } = await openPage(live!.browser)
    await page.goto(live!.served.url)
    await page.getByTestId('new-run').click()
    await page.getByTestId('new-settings').waitFor()
    expect(await page.getByTestId('new-strategy').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['', 'plan', 'react'])
    await page.getByTestId('new-max-iterations').fill('3')
    // A model and its key are set: no hint to try the sample instead.
    await expect.poll(() => page.getByTestId('new-has-key').textContent()).toBe('set')
    expect(await page.getByTestId('new-sample-hint').count()).toBe(0)
    await ctx.close()
  })
})
