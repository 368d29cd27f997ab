// End-to-end: finding anything in a long run. The e2e home holds a finished
// run of 300 iterations (mkhome); its timeline is virtualised, so the cards
// searched for are not in the page until the search brings them there.
import { readFileSync } from 'node:fs'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env, launch, openPage, shot } from './browser'
import { serve, type Served } from './serve'

interface Expected {
  run_id: string
  iterations: number
}

const long = (JSON.parse(readFileSync(env('HERMES_E2E_EXPECTED'), 'utf8')) as Expected[]).find((r) => r.iterations === 300)!

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

const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)

// inView says whether el lies wholly inside the timeline's visible box.
const inView = (el: Locator) =>
  el.evaluate((e) => {
    const box = e.closest('[data-testid="timeline"]')!.getBoundingClientRect()
    const r = e.getBoundingClientRect()
    return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1
  })

async function openLong(opts: { locale?: string } = {}) {
  const { ctx, page } = await openPage(browser, { width: 1440, height: 900, ...opts })
  await page.goto(`${served.url}#/runs/${long.run_id}`)
  await card(page, 0).waitFor()
  return { ctx, page }
}

describe('search inside a run', () => {
  it('finds a string in iteration 250 of 300, moves between the hits and marks each in its card', async () => {
    const { ctx, page } = await openLong()
    expect(await page.getByTestId('run-iterations').textContent()).toBe('300')
    expect(await card(page, 250).count()).toBe(0)

    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input')
    await page.keyboard.type('zephyr-42')
    const count = page.getByTestId('search-count')
    await expect.poll(() => count.textContent()).toBe('4 matches')
    const listed = await page.getByTestId('search-hit').evaluateAll((els) => els.map((e) => [e.getAttribute('data-iteration'), e.getAttribute('data-field')]))
    expect(listed).toEqual([
      ['250', 'result'],
      ['250', 'result'],
      ['251', 'thought'],
      ['300', 'answer'],
    ])

    await page.keyboard.press('Enter')
    await expect.poll(() => count.textContent()).toBe('1 of 4')
    const mark250 = card(page, 250).getByTestId('search-mark')
    await expect.poll(() => mark250.textContent()).toBe('zephyr-42')
    await expect.poll(() => inView(mark250)).toBe(true)
    expect(await page.getByTestId('inspector').getAttribute('data-iteration')).toBe('250')
    expect(await page.getByTestId('search-mark').count()).toBe(1)
    await shot(page, 'search.png')

    await page.keyboard.press('Enter')
    await expect.poll(() => count.textContent()).toBe('2 of 4')
    await expect.poll(() => mark250.textContent()).toBe('ZEPHYR-42')

    await page.keyboard.press('Enter')
    await expect.poll(() => count.textContent()).toBe('3 of 4')
    const mark251 = card(page, 251).getByTestId('search-mark')
    await expect.poll(() => inView(mark251)).toBe(true)
    expect(await page.getByTestId('inspector').getAttribute('data-iteration')).toBe('251')

    await page.keyboard.press('Shift+Enter')
    await expect.poll(() => count.textContent()).toBe('2 of 4')
    await expect.poll(() => mark250.textContent()).toBe('ZEPHYR-42')
    await expect.poll(() => inView(mark250)).toBe(true)

    // A click on a listed hit goes there too.
    await page.getByTestId('search-hit').nth(3).click()
    await expect.poll(() => inView(card(page, 300).getByTestId('search-mark'))).toBe(true)
    await ctx.close()
  })

  it('opens a collapsed reasoning block that holds the hit, and filters by status', async () => {
    const { ctx, page } = await openLong()
    await page.getByTestId('goto-input').fill('7')
    await page.getByTestId('goto-input').press('Enter')
    await expect.poll(() => inView(card(page, 7).locator('.card-head'))).toBe(true)
    const reasoning = card(page, 7).getByTestId('reasoning')
    expect(await reasoning.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(false)

    await page.getByTestId('search-input').fill('quiet-lemma')
    await page.getByTestId('search-input').press('Enter')
    await expect.poll(() => reasoning.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(true)
    const mark = reasoning.getByTestId('search-mark')
    await expect.poll(() => mark.textContent()).toBe('quiet-lemma')
    await expect.poll(() => inView(mark)).toBe(true)

    // A filter alone lists what it keeps: this run has no guard.
    await page.getByTestId('search-clear').click()
    await page.getByTestId('search-filters').click()
    await page.getByTestId('filter-type').selectOption('model.reasoning')
    await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('1 match')
    await page.getByTestId('filter-type').selectOption('')
    await page.getByTestId('filter-flag').selectOption('guard')
    await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('No match')
    await ctx.close()
  })

  it('goes to the first and last iteration, and to a card from the budget chart', async () => {
    const { ctx, page } = await openLong()
    await page.keyboard.press('End')
    await expect.poll(() => inView(card(page, 300).locator('.card-head'))).toBe(true)
    await page.keyboard.press('Home')
    await expect.poll(() => inView(card(page, 0).locator('.card-head'))).toBe(true)

    // The chart's panel opens over the timeline, and closes when the chart takes the timeline to a card.
    await page.getByTestId('panel-toggle-budget').click()
    const chart = page.locator('[data-testid="budget-chart"] svg')
    const box = (await chart.boundingBox())!
    await chart.click({ position: { x: box.width * (149.5 / 300), y: box.height / 2 } })
    await expect.poll(() => page.getByTestId('inspector').getAttribute('data-iteration')).toBe('150')
    await expect.poll(() => inView(card(page, 150).locator('.card-head'))).toBe(true)
    expect(await page.locator('.panel-sheet').count()).toBe(0)

    await page.keyboard.press('?')
    const help = await page.getByTestId('help').textContent()
    expect(help).toContain('Ctrl+F')
    expect(help).toContain('Search this run')
    await ctx.close()
  })

  it('copies a model request as cURL, with the key left to the shell', async () => {
    const { ctx, page } = await openLong()
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(served.url).origin })
    await page.getByTestId('goto-input').fill('3')
    await page.getByTestId('goto-input').press('Enter')
    await expect.poll(() => page.getByTestId('inspector').getAttribute('data-iteration')).toBe('3')
    await page.getByTestId('copy-curl').click()
    await expect.poll(() => page.getByTestId('copy-curl').getAttribute('data-state')).toBe('done')
    const cmd = await page.evaluate(() => navigator.clipboard.readText())
    expect(cmd.split('\n').slice(0, 3)).toEqual([
      "curl 'http://127.0.0.1:11434/v1/chat/completions' \\",
      "  -H 'Content-Type: application/json' \\",
      '  -H "Authorization: Bearer $OPENAI_API_KEY" \\',
    ])
    const body = JSON.parse(cmd.slice(cmd.indexOf("<<'JSON'\n") + 9, cmd.lastIndexOf('\nJSON\n'))) as { model: string; messages: { role: string }[]; tools: { function: { name: string } }[] }
    expect(Object.keys(body)).toEqual(['model', 'messages', 'tools'])
    expect(body.model).toBe('deepseek-reasoner')
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool'])
    expect(body.tools.map((x) => x.function.name)).toEqual(['list_files', 'read_file'])
    expect(cmd).not.toMatch(/Bearer (?!\$OPENAI_API_KEY)/)

    // Every prompt message copies on its own.
    await page.getByTestId('copy-message').nth(1).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('Check every note of the archive')
    await ctx.close()
  })

  it('speaks Chinese', async () => {
    const { ctx, page } = await openLong({ locale: 'zh-CN' })
    expect(await page.getByTestId('search-input').getAttribute('placeholder')).toBe('在本次运行中搜索（/）')
    await page.getByTestId('search-input').fill('zephyr-42')
    await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('4 处匹配')
    await page.getByTestId('search-input').press('Enter')
    await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('第 1 / 4 处')
    await ctx.close()
  })
})
