// End-to-end: several live runs, each open in its own page of one browser
// context. A browser opens at most six HTTP/1.1 connections to a host, so
// every page must hold one stream only, or the third page never loads.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPage } from './browser'
import { startLive, type Live } from './harness'

const pages = 4
let live: Live | undefined

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-pages-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 4\nstrategy = "react"\nroute = false\n`,
  })
})

afterAll(() => live?.stop())

const runState = (page: Page) => page.getByTestId('run-status').first().getAttribute('data-status')

it(`keeps ${pages} run pages live in one browser context`, async () => {
  const { model, served, workspace, browser } = live!
  const list = { id: 'c1', name: 'list_files', arguments: '{}' }
  await model.script([
    ...Array.from({ length: pages }, () => ({ content: 'Looking.', tool_calls: [list], hold: true })),
    ...Array.from({ length: pages }, () => ({ content: 'The workspace is empty.', chunks: 2 })),
  ])
  const ids: string[] = []
  for (let i = 0; i < pages; i++) {
    const res = await served.api('POST', '/api/runs', { task: `Look around, take ${i + 1}`, workspace })
    ids.push(((await res.json()) as { run_id: string }).run_id)
    // One run at a time reaches the model, so each takes its own held step.
    await expect.poll(async () => (await model.state()).waiting).toBe(i + 1)
  }

  const { ctx, page: first } = await openPage(browser)
  const streams: string[] = []
  ctx.on('request', (r) => {
    if (r.method() === 'GET' && r.url().includes('/stream')) streams.push(new URL(r.url()).pathname)
  })
  const opened: Page[] = []
  for (const [i, id] of ids.entries()) {
    const page = i === 0 ? first : await ctx.newPage()
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    await page.evaluate((h) => (window.location.hash = h), `#/runs/${id}`)
    await page.getByTestId('iteration-card').first().waitFor()
    expect(await runState(page)).toBe('running')
    opened.push(page)
  }
  // One more page still loads: a connection is left for it.
  const more = await ctx.newPage()
  await more.goto(served.url)
  await more.getByTestId('runs-page').waitFor()

  for (let i = 0; i < pages; i++) await model.release()
  for (const page of opened) {
    await page.locator('[data-testid="mark"][data-kind="finished"]').waitFor()
    expect(await runState(page)).toBe('finished')
  }
  // The list on the extra page saw every run end (the sample run ends it, never live).
  await expect.poll(() => more.locator('[data-testid="run-row"][data-live="false"][data-sample="false"]').count()).toBe(pages)
  expect(streams.every((p) => p === '/api/stream')).toBe(true)
  expect(streams.length).toBeLessThanOrEqual(pages + 1)
  await ctx.close()
})
