// End-to-end: a live plan run, started from the page of a real `hermes serve`
// whose home says `[agent] strategy = "plan"`, against the scripted model
// process. The model answers each stage in the JSON the agent asks for:
// the route, the plan, its decisions (with `_meta`), the step checks and the
// confidence. Held answers let the test look at each stage before the next.
// The model guesses an order id, the call fails, the run asks, and the
// answer is typed into the question card in the browser.
// scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ModelRequest, ScriptModel, Step } from './model'
import type { Served } from './serve'

const task = "Refund Alice's last order; the reason is 'arrived damaged'."

// A command skill of the user's own: orders only its script knows, so no
// id can be read off the task or the workspace.
const ordersSkill = {
  name: 'orders',
  description: 'Look up and refund orders of the shop. Use it when a task is about an order.',
  command: ['node', './orders.cjs'],
  tools: [
    {
      name: 'get_order',
      description: 'Use it to look up an order by its id before refunding it. Returns one line.',
      risk: 'read',
      parameters: {
        type: 'object',
        required: ['order_id'],
        properties: { order_id: { type: 'string', description: "The order's id, such as ORD-1234." } },
      },
    },
    {
      name: 'refund_order',
      description: 'Use it to refund an order by its id once it is looked up. Returns a confirmation.',
      risk: 'write',
      parameters: {
        type: 'object',
        required: ['order_id', 'reason'],
        properties: {
          order_id: { type: 'string', description: "The order's id, such as ORD-1234." },
          reason: { type: 'string', description: 'Why it is refunded.' },
        },
      },
    },
  ],
}

const ordersScript = `const { appendFileSync } = require('node:fs')
const { join } = require('node:path')
let s = ''
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const { tool, arguments: a, workspace } = JSON.parse(s)
  const reply = (o) => console.log(JSON.stringify(o))
  if (a.order_id !== 'ORD-7731') return reply({ error: 'no order ' + a.order_id + '; order ids look like ORD-1234' })
  if (tool === 'get_order') return reply({ result: 'ORD-7731: Alice, 2 lamps, 80 EUR, delivered' })
  appendFileSync(join(workspace, 'refunds.log'), a.order_id + ' ' + a.reason + '\\n')
  reply({ result: 'refunded ' + a.order_id })
})
`

const plan = {
  assumptions: ["Alice's last order can be looked up"],
  steps: [
    { description: "Look up Alice's last order", tools: ['get_order'], acceptance: 'the order is shown' },
    { description: 'Refund it as arrived damaged', tools: ['refund_order'], acceptance: 'the refund is confirmed' },
  ],
}

type From = 'user' | 'tool' | 'inferred'

/**
 * decide is a tool call under a plan: its arguments carry the `_meta` the
 * plan strategy adds to every tool, with the verdict on the step the
 * previous call finished when one is due.
 */
function decide(id: string, name: string, args: object, step: number, serves: string, provenance: Record<string, From>, check?: object) {
  const meta = { step, step_status: 'finished', serves_goal: serves, provenance, ...(check ? { check } : {}) }
  return { id, name, arguments: JSON.stringify({ ...args, _meta: meta }) }
}

const stageJSON = (o: object): Step => ({ content: JSON.stringify(o) })

// One answer per request, in the order a plan run asks: route, plan, then
// turns, each giving the verdict on the step the one before finished, and
// the last step's check with the rating of the answer last. The guess's
// failure is followed by a question, not a check.
const script: Step[] = [
  stageJSON({ route: 'loop', reason: 'a refund needs the order tools' }),
  { ...stageJSON(plan), hold: true },
  {
    content: 'Alice ordered recently; trying her usual id.',
    tool_calls: [decide('c1', 'get_order', { order_id: 'ORD-1001' }, 1, "look up Alice's last order", { order_id: 'inferred' })],
    hold: true,
  },
  {
    content: 'Looking up the order the user named.',
    tool_calls: [decide('c2', 'get_order', { order_id: 'ORD-7731' }, 1, "look up Alice's last order", { order_id: 'user' })],
    hold: true,
  },
  {
    content: 'Refunding it.',
    tool_calls: [
      decide('c3', 'refund_order', { order_id: 'ORD-7731', reason: 'arrived damaged' }, 2, "refund Alice's order", { order_id: 'user' }, {
        passed: true,
        reason: 'ORD-7731 is shown: Alice, 2 lamps',
        contradicts_plan: false,
      }),
    ],
    hold: true,
  },
  { content: 'Refunded ORD-7731 (arrived damaged).', chunks: 3, hold: true },
  stageJSON({
    passed: true,
    reason: 'the refund of ORD-7731 is confirmed',
    contradicts_plan: false,
    confidence: 0.9,
    confidence_reason: 'the order was looked up and the refund confirmed',
  }),
]

// The stage of each request above, told apart by the stage's system prompt.
const expectedStages = ['route', 'plan', 'turn', 'turn', 'turn', 'turn', 'confidence']

function stageOf(req: ModelRequest): string {
  const system = req.messages[0]?.content ?? ''
  if (system.startsWith('You route messages')) return 'route'
  if (system.startsWith('You are the planner')) return 'plan'
  if (system.startsWith('You check one step')) return 'evaluate'
  if (system.startsWith('You rate how sure')) return 'confidence'
  return 'turn'
}

const text = (req: ModelRequest) => req.messages.map((m) => m.content).join('\n')

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-plan-',
    prepare: ({ home }) => {
      mkdirSync(join(home, 'skills', 'orders'), { recursive: true })
      writeFileSync(join(home, 'skills', 'orders', 'skill.json'), JSON.stringify(ordersSkill, null, 2))
      writeFileSync(join(home, 'skills', 'orders', 'orders.cjs'), ordersScript)
    },
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n` +
      `[agent]\nmax_iterations = 8\nstrategy = "plan"\nroute = true\n\n[tools]\nallow = ["refund_order"]\n`,
  })
  ;({ browser, served, model, workspace } = live)
})

afterAll(() => live?.stop())

const waiting = async () => (await model.state()).waiting
const stepStatuses = (page: Page) => page.getByTestId('plan-step').evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))
const currentStep = (page: Page) =>
  page.getByTestId('plan-step').evaluateAll((els) => els.findIndex((el) => el.getAttribute('aria-current') === 'step') + 1)
const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)

describe('a live plan run', () => {
  it('routes, plans, asks for the order id in the page, ticks its steps and finishes', async () => {
    await model.script(script)
    const { ctx, page } = await openPage(browser, { height: 1100 })
    await page.goto(served.url)
    await page.getByTestId('new-run').click()
    await page.getByTestId('new-task').fill(task)
    await page.getByTestId('new-workspace').fill(workspace)
    await expect.poll(() => page.getByTestId('new-has-key').textContent()).toBe('set')
    await page.getByTestId('new-start').click()
    await page.getByTestId('run-page').waitFor()

    // Routed by the model; the plan is being written.
    await expect.poll(waiting).toBe(1)
    // Above the timeline the plan opens when asked, over it; the page remembers it open.
    await page.getByTestId('panel-toggle-plan').click()
    const route = page.getByTestId('plan-route')
    await route.waitFor()
    expect(await route.getAttribute('data-route')).toBe('loop')
    expect(await route.textContent()).toContain('by the model')
    expect(await route.textContent()).toContain('a refund needs the order tools')
    expect(await page.getByTestId('plan-step').count()).toBe(0)

    // The plan, as a checklist with nothing passed, while the model decides.
    await model.release()
    await expect.poll(waiting).toBe(1)
    const checklist = page.getByRole('list', { name: 'Plan' })
    await checklist.waitFor()
    await expect.poll(() => stepStatuses(page)).toEqual(['pending', 'pending'])
    expect(await currentStep(page)).toBe(1)
    expect(await checklist.textContent()).toContain("Look up Alice's last order")
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('running')
    await shot(page, 'plan-live-planned.png')

    // The guessed id fails and the run asks instead of guessing again.
    await model.release()
    const question = page.getByRole('form', { name: /The run asks/ })
    await question.waitFor()
    expect(await question.textContent()).toContain('ORD-1001')
    expect(await question.textContent()).toContain('get_order')
    expect(await card(page, 1).getByTestId('call').getAttribute('data-status')).toBe('failed')
    expect(await card(page, 1).locator('[data-testid="provenance"] [data-from="inferred"]').count()).toBe(1)
    // The run waits on the person, not the model, and nothing is checked yet.
    expect(await waiting()).toBe(0)
    expect(await stepStatuses(page)).toEqual(['pending', 'pending'])
    await shot(page, 'plan-live-question.png')

    await question.getByRole('textbox', { name: 'Your answer' }).fill('ORD-7731')
    await question.getByRole('button', { name: 'Answer', exact: true }).click()
    await expect.poll(() => question.count()).toBe(0)
    await expect.poll(waiting).toBe(1)
    const requests = await model.requests()
    // Nothing the model saw held the id before the person gave it.
    expect(requests.slice(0, 3).some((r) => text(r).includes('ORD-7731'))).toBe(false)
    expect(text(requests.at(-1)!)).toContain('The user says: ORD-7731')
    const marks = await card(page, 1).getByTestId('mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))
    expect(marks).toEqual(expect.arrayContaining(['question', 'answered']))
    expect(await card(page, 1).locator('[data-testid="mark"][data-kind="answered"]').textContent()).toContain('ORD-7731')

    // Step 1 is finished; its verdict comes with the next decision.
    await model.release()
    await expect.poll(waiting).toBe(1)
    expect(await stepStatuses(page)).toEqual(['pending', 'pending'])

    // Step 1 ticks with the verdict the refund's decision gave; the answer
    // is being written, and step 2 is checked with it.
    await model.release()
    await expect.poll(waiting).toBe(1)
    await expect.poll(() => stepStatuses(page)).toEqual(['passed', 'pending'])
    expect(await currentStep(page)).toBe(2)
    expect(await checklist.textContent()).toContain('ORD-7731 is shown')
    expect(await page.getByTestId('plan-completion').count()).toBe(0)
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('running')

    await model.release()
    await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('finished')
    const completion = page.getByTestId('plan-panel').getByTestId('plan-completion')
    expect(await completion.getAttribute('data-passed')).toBe('true')
    expect(await completion.textContent()).toContain('2 of 2 required steps passed')
    expect(await stepStatuses(page)).toEqual(['passed', 'passed'])
    expect(await page.getByTestId('run-answer').textContent()).toContain('Refunded ORD-7731')
    await page.getByTestId('panel-toggle-answer').click()
    expect(await page.getByTestId('run-confidence').textContent()).toContain('90')
    expect(await page.getByTestId('best-effort').count()).toBe(0)
    await shot(page, 'plan-live-finished.png')

    expect((await model.requests()).map(stageOf)).toEqual(expectedStages)
    expect(readFileSync(join(workspace, 'refunds.log'), 'utf8')).toBe('ORD-7731 arrived damaged\n')
    await ctx.close()
  })
})
