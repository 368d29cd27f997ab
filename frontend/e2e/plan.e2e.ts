// End-to-end: a plan run's panel, checklist, replan, decisions and
// completion, drawn by the built UI in headless Chromium. The page talks to
// a real `hermes serve` on the e2e home; only one run's event log is the
// plan fixture of src/lib/fixture.ts, so the page folds a whole plan run
// whatever the home's runs were written with.
import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planEvents } from '../src/lib/fixture'
import { env, launch, openPage, shot } from './browser'
import { serve, type Served } from './serve'

const runId = (JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as { run_id: string }[])[0].run_id
const events = planEvents.map((e) => ({ ...e, run_id: runId }))

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

describe('a plan run', () => {
  it.each([
    { locale: 'en-US', colorScheme: 'light' as const, file: 'plan-en.png', heading: 'Plan', stages: 'plan 900 · decide 4,800 · evaluate 700 · answer 1,000' },
    { locale: 'zh-CN', colorScheme: 'dark' as const, file: 'plan-zh-dark.png', heading: '计划', stages: '规划 900 · 决策 4,800 · 评估 700 · 回答 1,000' },
  ])('shows the route, the checklist, the replan and the checks ($locale, $colorScheme)', async ({ locale, colorScheme, file, heading, stages }) => {
    const { ctx, page } = await openPage(browser, { locale, colorScheme, height: 1100 })
    await page.route(`**/api/runs/${runId}/events*`, (route) => route.fulfill({ json: events }))
    await page.goto(`${served.url}#/runs/${runId}`)
    const panel = page.getByTestId('plan-panel')
    await panel.waitFor()
    expect(await panel.locator('h3').textContent()).toContain(heading)
    // Above the timeline a panel opens when asked, over it.
    await page.getByTestId('panel-toggle-plan').click()
    expect(await page.getByTestId('plan-route').getAttribute('data-route')).toBe('loop')
    const steps = page.getByTestId('plan-step')
    expect(await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual(['passed', 'passed', 'passed'])
    expect(await panel.getByTestId('plan-revision').count()).toBe(1)
    expect(await panel.getByTestId('plan-completion').getAttribute('data-passed')).toBe('true')
    expect(await page.locator('[data-testid="decision"][data-drift="true"]').count()).toBe(1)
    expect(await page.locator('[data-testid="provenance"] [data-from="inferred"]').count()).toBe(1)
    // The run header says what each stage spent.
    expect(await page.getByTestId('run-stage-tokens').textContent()).toBe(stages)
    await shot(page, file)
    await page.getByTestId('panel-toggle-answer').click()
    await page.getByTestId('run-confidence').waitFor()
    expect(await panel.getByTestId('plan-steps').count()).toBe(0)
    await ctx.close()
  })
})
