// End-to-end: how a run's commands run, as the page shows it. A real
// `hermes serve` runs execute_command in the OS sandbox of its defaults
// ([tools] sandbox = "workspace", [tools.risk] exec = "sandbox"); the
// scripted model writes outside the workspace, then asks to leave the
// sandbox. scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApprovalRequestedData, HermesEvent, RunStartedData } from '../src/api/types'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel } from './model'
import type { Served } from './serve'

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-sandbox-',
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 6\nstrategy = "react"\nroute = false\n`,
  })
  ;({ browser, served, model, workspace } = live)
})

afterAll(() => live?.stop())

async function events(runId: string): Promise<HermesEvent[]> {
  const res = await served.api('GET', `/api/runs/${runId}/events`)
  expect(res.status).toBe(200)
  return (await res.json()) as HermesEvent[]
}

const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)
const runState = (page: Page) => page.getByTestId('run-status').first().getAttribute('data-status')

describe('the sandbox', () => {
  it('shows the block of a write outside the workspace on its card, and asks to leave the sandbox with only once or deny', async (ctx) => {
    const outside = join(dirname(workspace), 'outside.txt')
    await model.script([
      { content: 'Writing the file.', tool_calls: [call('s1', 'execute_command', { command: 'echo x > ../outside.txt' })] },
      { content: 'Blocked; asking to leave the sandbox.', tool_calls: [call('s2', 'execute_command', { command: 'echo x > ../outside.txt', outside_sandbox: true })] },
      { content: 'The sandbox kept ../outside.txt from being written.' },
    ])
    const res = await served.api('POST', '/api/runs', { task: 'Write x into ../outside.txt', workspace })
    expect(res.status).toBe(201)
    const runId = ((await res.json()) as { run_id: string }).run_id
    const { ctx: bctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)

    // The header says how commands run before any has.
    const badge = page.getByTestId('run-sandbox')
    await badge.waitFor()
    const started = (await events(runId)).find((e) => e.type === 'run.started')?.data as RunStartedData
    if (!started.sandbox?.enforced) {
      // A machine without an OS sandbox (no Landlock) says so, and the rest cannot be shown.
      expect(await badge.getAttribute('data-enforced')).toBe('false')
      expect(await badge.textContent()).toContain(`not sandboxed: ${started.sandbox?.why ?? ''}`)
      await page.getByTestId('approval-dialog').getByTestId('deny').click()
      await bctx.close()
      return ctx.skip(`no OS sandbox on this machine: ${started.sandbox?.why ?? ''}`)
    }
    expect(await badge.getAttribute('data-enforced')).toBe('true')
    expect(await badge.textContent()).toContain('sandboxed · workspace · no network')

    // Under exec = "sandbox" the confined call ran without asking, and the
    // sandbox blocked the write: said on the card, without opening anything.
    const first = card(page, 1).getByTestId('call')
    await expect.poll(() => first.getByTestId('call-sandbox').getAttribute('data-state')).toBe('blocked')
    expect(await first.getByTestId('call-sandbox').textContent()).toBe('blocked by the sandbox')
    expect(await first.getByTestId('call-blocked').textContent()).toContain(`write ${outside} (outside the workspace)`)
    expect(await first.getByTestId('call-blocked').isVisible()).toBe(true)
    expect(existsSync(outside)).toBe(false)

    // Asked to leave the sandbox: a warning, the command and why it is
    // always asked, and only "allow once" or "deny".
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor()
    expect(await dialog.getByTestId('approval-escaping').count()).toBe(1)
    expect(await dialog.getByTestId('approval-command').allTextContents()).toEqual(['echo x > ../outside.txt'])
    const asked = (await events(runId)).findLast((e) => e.type === 'approval.requested')?.data as ApprovalRequestedData
    expect(asked.escaping).toBe(true)
    expect(asked.risky?.length).toBeGreaterThan(0)
    expect(await dialog.getByTestId('approval-risky').textContent()).toContain(`Always asked: ${asked.risky![0]}`)
    expect(await dialog.getByTestId('approval-escaping').textContent()).toContain('outside the sandbox, with all your rights')
    expect(await dialog.getByTestId('approve-run').count()).toBe(0)
    expect(await dialog.getByTestId('approve-always').count()).toBe(0)
    expect(await dialog.getByTestId('approve-pattern').count()).toBe(0)
    expect(await card(page, 2).getByTestId('call-approval').textContent()).toContain('to run outside the sandbox')
    await shot(page, 'sandbox-escaping.png')
    await dialog.getByTestId('deny-reason').fill('stay inside the workspace')
    await dialog.getByTestId('deny').click()

    await expect.poll(() => runState(page)).toBe('finished')
    expect(await card(page, 2).getByTestId('call').getAttribute('data-status')).toBe('denied')
    expect(existsSync(outside)).toBe(false)
    // The badge opens on how commands are confined.
    await badge.locator('summary').click()
    expect(await page.getByTestId('run-sandbox-detail').textContent()).toContain(`Confined by ${started.sandbox.how ?? ''}`)
    await shot(page, 'sandbox-detail.png')
    await badge.locator('summary').click()
    // The page at 1280×720 with the blocked call's card in view.
    await card(page, 1).scrollIntoViewIfNeeded()
    await shot(page, 'sandbox-1280x720.png')
    await bctx.close()
  })

  it('runs one run unsandboxed when the New run form says so, warns of it, and asks its commands with their patterns', async () => {
    const line = 'ls -a && wc -l $(ls)'
    await model.script([
      { content: 'Counting.', tool_calls: [call('o1', 'execute_command', { command: line })] },
      { content: 'Counted.' },
    ])
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await page.goto(served.url)
    await page.getByTestId('new-run').click()
    await page.getByTestId('new-task').fill('List the workspace')
    await page.getByTestId('new-workspace').fill(workspace)
    expect(await page.getByTestId('new-sandbox').inputValue()).toBe('')
    await page.getByTestId('new-sandbox').selectOption('off')
    expect(await page.getByTestId('new-sandbox-hint').textContent()).toContain('Commands run with your rights')
    await shot(page, 'sandbox-new-run.png')
    await page.getByTestId('new-start').click()
    await page.getByTestId('run-page').waitFor()
    const runId = (await page.getByTestId('run-page').getAttribute('data-run-id')) ?? ''

    const badge = page.getByTestId('run-sandbox')
    await badge.waitFor()
    expect(await badge.getAttribute('data-enforced')).toBe('false')
    const started = (await events(runId)).find((e) => e.type === 'run.started')?.data as RunStartedData
    expect(started.sandbox?.mode).toBe('off')
    expect(await badge.textContent()).toContain(`not sandboxed: ${started.sandbox?.why}`)
    expect(await badge.locator('summary').isVisible()).toBe(true)
    // The start card has the room to give the whole reason.
    expect(await page.getByTestId('start-sandbox').textContent()).toBe(`Commands: not sandboxed: ${started.sandbox?.why}`)

    // Under exec = "sandbox" a command line that would run unconfined is
    // asked: its commands one a line, why it is always asked, and the
    // "always" patterns offered, pre-filled and sent as they stand.
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor()
    const asked = (await events(runId)).find((e) => e.type === 'approval.requested')?.data as ApprovalRequestedData
    expect(asked.commands).toEqual(expect.arrayContaining(['ls -a', 'wc -l $(ls)']))
    expect(await dialog.getByTestId('approval-command').allTextContents()).toEqual(asked.commands)
    expect(await dialog.getByTestId('approval-risky').textContent()).toContain('Always asked: command substitution $(…)')
    expect(asked.patterns?.length).toBeGreaterThan(0)
    const offered = asked.patterns!.join('; ')
    expect(await dialog.getByTestId('approve-pattern').inputValue()).toBe(offered)
    expect(await dialog.getByTestId('approval-escaping').count()).toBe(0)
    await shot(page, 'sandbox-off-approval.png')
    await dialog.getByTestId('approve-always').click()
    await expect.poll(() => runState(page)).toBe('finished')
    const resolved = (await events(runId)).find((e) => e.type === 'approval.resolved')?.data as { decision: string; pattern: string }
    expect(resolved).toMatchObject({ decision: 'allow_always', pattern: offered })
    const tag = card(page, 1).getByTestId('call-sandbox')
    expect(await tag.getAttribute('data-state')).toBe('unconfined')
    expect(await tag.textContent()).toBe('not sandboxed')
    await shot(page, 'sandbox-off-1280x720.png')
    await ctx.close()
  })
})
