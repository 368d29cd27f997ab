// End-to-end: live runs steered from the page. A real `hermes serve` runs the
// real loop against the scripted model process; both live in temp dirs.
// scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlTaken, openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel, Step } from './model'
import type { Served } from './serve'

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-',
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, 'notes'), { recursive: true })
      writeFileSync(join(workspace, 'notes', 'monday.md'), '# Monday\nShip the timeline.\n')
      writeFileSync(join(workspace, 'notes', 'tuesday.md'), '# Tuesday\nReview the fork.\n')
    },
    config: ({ modelURL }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 8\nstrategy = "react"\nroute = false\n\n[tools.risk]\nwrite = "ask"\n`,
  })
  ;({ browser, served, model, workspace } = live)
})

afterAll(() => live?.stop())

async function startRun(task: string, steps: Step[], instructions = ''): Promise<string> {
  await model.script(steps)
  const res = await served.api('POST', '/api/runs', { task, instructions, workspace })
  expect(res.status).toBe(201)
  return ((await res.json()) as { run_id: string }).run_id
}

// untilEnd reads the run's event stream until the server says its leg is over.
async function untilEnd(runId: string): Promise<void> {
  const res = await served.api('GET', `/api/runs/${runId}/stream?after=0`)
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while (!/^event: end$/m.test(text)) {
    const { value, done } = await reader.read()
    if (done) break
    text += value
  }
  await reader.cancel()
}

async function openRun(page: Page, runId: string): Promise<void> {
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
  await page.getByTestId('iteration-card').first().waitFor()
}

const card = (page: Page, n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`)
const waiting = async () => (await model.state()).waiting
const runState = (page: Page) => page.getByTestId('run-status').first().getAttribute('data-status')

describe('a live run', () => {
  it('appears live, from the New run form to its answer', async () => {
    await model.script([
      { content: 'Looking at the notes first.', chunks: 3, tool_calls: [call('c1', 'list_files', { path: 'notes' })] },
      { content: 'There are two notes: Monday and Tuesday.', chunks: 4, hold: true },
    ])
    const { ctx, page } = await openPage(browser)
    await page.goto(served.url)
    await page.getByTestId('new-run').click()
    await page.getByTestId('new-task').fill('List the notes')
    await page.getByTestId('new-workspace').fill(workspace)
    await expect.poll(() => page.getByTestId('new-has-key').textContent()).toBe('set')
    await page.getByTestId('new-start').click()
    await page.getByTestId('run-page').waitFor()
    const runId = (await page.getByTestId('run-page').getAttribute('data-run-id')) ?? ''

    await card(page, 1).getByTestId('call').waitFor()
    await expect.poll(() => card(page, 1).getByTestId('call').getAttribute('data-status')).toBe('ok')
    expect(await card(page, 1).getByTestId('call-result').textContent()).toContain('monday.md')
    // Iteration 2 is on screen while the model still thinks.
    await card(page, 2).waitFor()
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('running')
    await shot(page, 'live-running.png')

    await model.release()
    await expect.poll(() => runState(page)).toBe('finished')
    expect(await card(page, 2).getByTestId('final-answer').textContent()).toContain('two notes')
    expect(await page.getByTestId('run-answer').textContent()).toContain('two notes')

    await page.getByTestId('run-back').click()
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)
    await expect.poll(() => row.getByTestId('run-status').getAttribute('data-status')).toBe('finished')
    await ctx.close()
  })

  it('pauses after a decision, takes an edited task and call, and the next request carries the edit', async () => {
    const runId = await startRun('Read the Monday note', [
      { content: 'Reading it.', tool_calls: [call('c1', 'read_file', { path: 'notes/monday.md' })], hold: true },
      { content: 'Done reading.' },
    ])
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    await expect.poll(waiting).toBe(1)

    const pauseTaken = controlTaken(page, runId)
    await page.getByTestId('pause').click()
    // "Pausing…" at once, before the run gets to its safe point.
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('pausing')
    await pauseTaken
    await model.release()
    await expect.poll(() => page.getByTestId('run-state').getAttribute('data-state')).toBe('paused')

    await page.getByTestId('edit').click()
    await page.getByTestId('edit-task').fill('Read the Tuesday note')
    await page.getByTestId('edit-call-args').fill('{"path": "notes/tuesday.md"}')
    await page.getByTestId('edit-save-resume').click()

    await expect.poll(() => runState(page)).toBe('finished')
    const calls = card(page, 1).getByTestId('call')
    expect(await calls.getAttribute('data-status')).toBe('ok')
    expect(await calls.getByTestId('call-result').textContent()).toContain('Review the fork')
    expect(await calls.getByTestId('call-diff').textContent()).toContain('notes/tuesday.md')
    // The task's diff is word-level: only the changed word is struck out and put in.
    const taskDiff = page.getByTestId('task-diff')
    expect(await taskDiff.getByTestId('diff-removed').allTextContents()).toEqual(['Monday'])
    expect(await taskDiff.getByTestId('diff-added').allTextContents()).toEqual(['Tuesday'])
    const kinds = await card(page, 1).getByTestId('mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))
    expect(kinds).toEqual(expect.arrayContaining(['paused', 'call_edited', 'task_edited', 'resumed']))

    const requests = await model.requests()
    const last = requests.at(-1)!.messages.map((m) => m.content).join('\n')
    expect(last).toContain('Read the Tuesday note')
    expect(last).not.toContain('Read the Monday note')
    await shot(page, 'live-edited.png')
    await ctx.close()
  })

  it('injects an instruction that enters the next request', async () => {
    const runId = await startRun('Look around', [
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: '.' })], hold: true },
      { content: 'Noted.' },
    ])
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    await expect.poll(waiting).toBe(1)
    await page.getByTestId('inject-input').fill('Answer in one word')
    const injectTaken = controlTaken(page, runId)
    await page.getByTestId('inject').click()
    await expect.poll(() => page.getByTestId('inject-input').inputValue()).toBe('')
    await injectTaken
    await model.release()
    await expect.poll(() => runState(page)).toBe('finished')
    const injected = page.locator('[data-testid="mark"][data-kind="injected"]')
    expect(await injected.textContent()).toContain('Answer in one word')
    const requests = await model.requests()
    expect(requests.at(-1)!.messages.map((m) => m.content).join('\n')).toContain('Answer in one word')
    await ctx.close()
  })

  it('asks before writing: allowed once, then denied with a reason the model gets', async () => {
    const runId = await startRun('Write two files', [
      { content: 'Writing a.', tool_calls: [call('w1', 'write_file', { path: 'a.txt', content: 'alpha' })] },
      { content: 'Writing b.', tool_calls: [call('w2', 'write_file', { path: 'b.txt', content: 'beta' })] },
      { content: 'Only a.txt was written.' },
    ])
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('write_file')
    expect(await dialog.getByTestId('json-tree').textContent()).toContain('a.txt')
    await shot(page, 'live-approval.png')
    await dialog.getByTestId('approve-once').click()

    await expect.poll(() => card(page, 1).getByTestId('call').getAttribute('data-status')).toBe('ok')
    await expect.poll(() => dialog.textContent()).toContain('b.txt')
    await dialog.getByTestId('deny-reason').fill('b.txt is not wanted')
    await dialog.getByTestId('deny').click()

    await expect.poll(() => runState(page)).toBe('finished')
    expect(await card(page, 2).getByTestId('call').getAttribute('data-status')).toBe('denied')
    expect(existsSync(join(workspace, 'a.txt'))).toBe(true)
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false)
    const requests = await model.requests()
    const toolMessages = requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => m.content)
    expect(toolMessages.join('\n')).toContain('b.txt is not wanted')
    await ctx.close()
  })

  it('stops at a safe point with a summary of where it stood, and resumes from the window', async () => {
    const runId = await startRun('Count the notes', [
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: 'notes' })], hold: true },
      { content: 'There are two notes.' },
    ])
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    await expect.poll(waiting).toBe(1)
    const stopTaken = controlTaken(page, runId)
    await page.getByTestId('stop').click()
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('stopping')
    await stopTaken
    await model.release()
    await expect.poll(() => runState(page)).toBe('stopped')
    const outcome = page.getByTestId('run-outcome')
    expect(await outcome.textContent()).toContain('Stopped at iteration 1')
    await shot(page, 'live-stopped.png')

    await page.getByTestId('resume-run').click()
    await expect.poll(() => runState(page)).toBe('finished')
    expect(await page.getByTestId('run-answer').textContent()).toContain('two notes')
    await ctx.close()
  })
})

describe('a finished run', () => {
  let runId = ''

  beforeAll(async () => {
    runId = await startRun('Summarise the notes', [
      { content: 'Listing.', tool_calls: [call('c1', 'list_files', { path: 'notes' })] },
      { content: 'Reading Monday.', tool_calls: [call('c2', 'read_file', { path: 'notes/monday.md' })] },
      { content: 'Monday: ship the timeline.' },
    ])
    await untilEnd(runId)
  })

  it('replays step by step and playing, at no token cost', async () => {
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    const before = (await model.state()).requests
    await page.getByTestId('replay').click()
    await page.getByTestId('replay-bar').waitFor()
    await expect.poll(() => page.getByTestId('iteration-card').count()).toBe(0)
    await page.getByTestId('replay-next-iteration').click()
    await card(page, 1).waitFor()
    await expect.poll(() => card(page, 2).count()).toBe(0)
    await page.getByTestId('replay-next').click()
    await page.getByTestId('replay-play').click()
    await page.locator('[data-testid="mark"][data-kind="finished"]').waitFor()
    expect(await page.getByTestId('replay-position').textContent()).toContain('run.finished')
    expect((await model.state()).requests).toBe(before)
    // Four events in, the first iteration has started (after run.started,
    // memory.recalled when earlier runs left any, checkpoint.saved).
    await page.getByTestId('replay-scrubber').fill('4')
    await expect.poll(() => page.getByTestId('iteration-card').count()).toBe(2)
    await shot(page, 'replay.png')
    await page.getByTestId('replay-exit').click()
    await expect.poll(() => page.getByTestId('iteration-card').count()).toBeGreaterThan(2)
    await ctx.close()
  })

  it('forks from iteration 2 with an edited task; the tools before it are not run again', async () => {
    await model.script([{ content: 'Forked: Tuesday is about the fork.' }])
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    await card(page, 2).getByTestId('card-fork').click()
    const dialog = page.getByTestId('fork-dialog')
    expect(await dialog.getByTestId('fork-iteration').inputValue()).toBe('2')
    await dialog.getByTestId('fork-task').fill('Summarise the Tuesday note')
    await dialog.getByTestId('fork-start').click()

    await page.waitForURL((u) => !u.hash.includes(runId))
    await expect.poll(() => runState(page)).toBe('finished')
    expect(await page.getByTestId('run-forked-from').textContent()).toContain(`${runId} #2`)
    const first = (await model.requests()).at(-1)!
    const text = first.messages.map((m) => m.content).join('\n')
    expect(text).toContain('Summarise the Tuesday note')
    // The recorded result of iteration 1 stands: list_files did not run again.
    expect(first.messages.some((m) => m.role === 'tool' && m.content.includes('monday.md'))).toBe(true)

    await page.getByTestId('run-forked-from').click()
    await expect.poll(() => page.getByTestId('run-forks').textContent()).not.toBe('')
    await ctx.close()
  })
})

describe("the model's reasoning", () => {
  it('shows in its iteration card, collapsed until opened', async () => {
    const thought = 'The notes live in notes/; list them first.'
    const runId = await startRun('List the notes', [
      { reasoning: thought, content: 'Listing.', chunks: 3, tool_calls: [call('r1', 'list_files', { path: 'notes' })] },
      { reasoning: 'Two files.', content: 'There are two notes.' },
    ])
    await untilEnd(runId)
    const { ctx, page } = await openPage(browser)
    await openRun(page, runId)
    const block = card(page, 1).getByTestId('reasoning')
    await block.waitFor()
    const text = block.locator('.reasoning-text')
    expect(await block.getAttribute('open')).toBeNull()
    expect(await text.isVisible()).toBe(false)
    await block.locator('summary').click()
    await expect.poll(() => text.isVisible()).toBe(true)
    expect(await text.textContent()).toBe(thought)
    await ctx.close()
  })
})
