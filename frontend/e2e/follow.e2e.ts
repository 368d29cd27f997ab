// End-to-end: the timeline follows a live run's newest card, stops when the
// person scrolls up, and follows again when asked. scripts/e2e.sh passes
// HERMES_BIN and HERMES_SCRIPTMODEL.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPage } from './browser'
import { startLive, type Live } from './harness'
import type { Step } from './model'

const turns = 16
let live: Live | undefined

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-follow-',
    prepare: ({ workspace }) => writeFileSync(join(workspace, 'lines.txt'), Array.from({ length: turns }, (_, i) => `line ${i + 1}`).join('\n')),
    config: ({ modelURL }) => `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = ${turns + 4}\nstrategy = "react"\nroute = false\n`,
  })
})

afterAll(() => live?.stop())

// gap is how far the timeline's end is below what it shows, in px.
const gap = (page: Page) => page.getByTestId('timeline').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
const scrollTop = (page: Page) => page.getByTestId('timeline').evaluate((el) => el.scrollTop)
const iterations = (page: Page) => page.getByTestId('run-iterations').textContent()

it('follows the newest card of a live run, stops when the person scrolls up, and follows again when asked', async () => {
  const { model, served, browser, workspace } = live!
  const steps: Step[] = Array.from({ length: turns }, (_, i) => ({
    content: `Reading line ${i + 1}.`,
    hold: true,
    tool_calls: [{ id: `c${i + 1}`, name: 'read_file', arguments: JSON.stringify({ path: 'lines.txt', offset_line: i + 1, limit_lines: 1 }) }],
  }))
  steps.push({ content: 'Read every line.', hold: true })
  await model.script(steps)
  const res = await served.api('POST', '/api/runs', { task: 'Read lines.txt one line at a time', workspace })
  const { run_id: runId } = (await res.json()) as { run_id: string }
  const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('timeline').waitFor()

  // next lets the model answer the turn it waits on, so iteration n starts.
  const next = async (n: number) => {
    await expect.poll(async () => (await model.state()).waiting).toBe(1)
    await model.release()
    // The meta row's count follows the run twice a second.
    await expect.poll(() => iterations(page), { timeout: 5000 }).toBe(String(n))
  }

  // Following: each new card is drawn at the end, and the end stays in view.
  await expect.poll(() => iterations(page), { timeout: 5000 }).toBe('1')
  for (let n = 2; n <= 12; n++) {
    await next(n)
    await page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`).waitFor()
    await expect.poll(() => gap(page), { timeout: 5000 }).toBeLessThan(48)
  }
  expect(await page.getByTestId('follow').count()).toBe(0)

  // The person scrolls up: the list stays where they put it as cards come.
  await page.getByTestId('timeline').hover()
  await page.mouse.wheel(0, -600)
  await page.getByTestId('follow').waitFor()
  await expect.poll(() => gap(page)).toBeGreaterThan(300)
  const at = await scrollTop(page)
  await next(13)
  await next(14)
  expect(Math.abs((await scrollTop(page)) - at)).toBeLessThan(2)

  // Asked to follow again: the end comes into view, and stays there.
  await page.getByTestId('follow').click()
  await expect.poll(() => gap(page), { timeout: 5000 }).toBeLessThan(48)
  await next(15)
  await page.locator('[data-testid="iteration-card"][data-iteration="15"]').waitFor()
  await expect.poll(() => gap(page), { timeout: 5000 }).toBeLessThan(48)
  await expect.poll(() => page.getByTestId('follow').count()).toBe(0)

  // The last turns: the answer, and the run is over.
  await next(16)
  await next(17)
  await expect.poll(async () => (await model.state()).waiting).toBe(1)
  await model.release()
  await page.locator('[data-testid="mark"][data-kind="finished"]').waitFor()
  await ctx.close()
})
