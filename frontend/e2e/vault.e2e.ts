// End-to-end: a vault edit is approved by its change, not its arguments. A
// real `hermes serve` with an Obsidian vault; the scripted model renames a
// note linked from others (a table's escaped pipe, a block, a Markdown
// link, a link in code that stays), then sets a property. The approval
// dialog shows each note whose links change, before → after, and the
// property's values; the notes on disk follow once approved, and the
// call's card shows what it changed. Undo on the cards: the rename's is
// refused while the property set after it stands, with why; the
// property's, then the rename's, put every note back as it was, and the
// cards say so after a reload. A note a tool read opens in the inspector
// rendered: a wikilink leads to another note, whose backlinks are listed.
// scripts/e2e.sh passes HERMES_BIN and HERMES_SCRIPTMODEL.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'
import type { ScriptModel } from './model'
import type { Served } from './serve'

let live: Live | undefined
let browser: Browser
let served: Served
let model: ScriptModel
let workspace: string
let vault: string
let renameRun = ''

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })

const notes: Record<string, string> = {
  'Projects/Plan.md': '---\nstatus: draft\n# kept\ntags: [project]\n---\n# Plan\n\nShip it. ^goal\n',
  'Weekly.md': 'See [[Plan]] and [[Plan#^goal|the goal]].\n\n| note | why |\n| --- | --- |\n| [[Plan\\|plan]] | work |\n\nCode stays: `[[Plan]]`\n',
  '周报/本周.md': '计划见 [计划](../Projects/Plan.md)。\n',
}

beforeAll(async () => {
  live = await startLive({
    prefix: 'hermes-e2e-vault-',
    prepare: ({ home }) => {
      vault = join(dirname(home), 'vault')
      for (const [p, text] of Object.entries(notes)) {
        mkdirSync(dirname(join(vault, p)), { recursive: true })
        writeFileSync(join(vault, p), text)
      }
    },
    config: ({ modelURL, home }) =>
      `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nmax_iterations = 6\nstrategy = "react"\nroute = false\n\n[obsidian]\nvault = '${join(dirname(home), 'vault')}'\n`,
  })
  ;({ browser, served, model, workspace } = live)
})

afterAll(() => live?.stop())

const read = (p: string) => readFileSync(join(vault, p), 'utf8')

// openRun opens the page of a run, as a person following a link to it does.
async function openRun(page: Page, runId: string) {
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
}

// approvalOf is the dialog of the approval of one call. Asked right after
// another, it can replace the dialog before in the same frame, so a test
// waiting for "the" dialog to close would see the next one instead.
const approvalOf = (page: Page, callId: string) => page.locator(`[data-testid="approval-dialog"][data-id="approval_${callId}"]`)

// approve allows the call, and waits for its dialog to go.
async function approve(page: Page, callId: string) {
  const dialog = approvalOf(page, callId)
  await dialog.getByTestId('approve-once').click()
  await dialog.waitFor({ state: 'detached' })
}

describe('a vault edit in the approval dialog', () => {
  it('shows a rename by the links it changes in each note, and a property by its values', async () => {
    await model.script([
      { content: 'Renaming the plan.', tool_calls: [call('r1', 'rename_note', { path: 'Projects/Plan.md', new_path: 'Archive/Plan 2024.md' })] },
      { content: 'Marking it done.', tool_calls: [call('p1', 'set_property', { path: '[[Plan 2024]]', name: 'status', value: 'done' })] },
      { content: 'Renamed [[Plan 2024]] and marked it done.' },
    ])
    const res = await served.api('POST', '/api/runs', { task: 'Archive my plan note and mark it done', workspace })
    expect(res.status).toBe(201)
    const runId = ((await res.json()) as { run_id: string }).run_id
    renameRun = runId
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)

    const dialog = approvalOf(page, 'r1')
    const change = dialog.getByTestId('approval-change')
    await change.waitFor()
    expect(await change.getByTestId('change-reach').textContent()).toBe('4 links change in 2 notes')
    const paths = await change.getByTestId('change-note').locator('.change-path').allTextContents()
    expect(paths).toEqual(['Projects/Plan.md → Archive/Plan 2024.md', 'Weekly.md', '周报/本周.md'])
    const links = await change.getByTestId('change-links').allTextContents()
    expect(links.join('\n')).toContain('[[Plan\\|plan]] → [[Plan 2024\\|plan]]')
    expect(links.join('\n')).toContain('[[Plan#^goal|the goal]] → [[Plan 2024#^goal|the goal]]')
    expect(links.join('\n')).toContain('[计划](../Projects/Plan.md) → [计划](../Archive/Plan%202024.md)')
    expect(links.join('\n')).not.toContain('`[[Plan]]`')
    expect(await change.getByTestId('diff-added').first().isVisible()).toBe(true)
    // The arguments are there, folded.
    expect(await dialog.locator('details.dialog-json').getAttribute('open')).toBeNull()
    await shot(page, 'vault-approval-rename.png')
    await approve(page, 'r1')

    const props = approvalOf(page, 'p1').getByTestId('change-properties')
    await props.waitFor()
    expect(await props.textContent()).toBe('status: draft → done')
    await shot(page, 'vault-approval-property.png')
    await approve(page, 'p1')

    await expect.poll(async () => page.getByTestId('run-status').first().getAttribute('data-status'), { timeout: 15000 }).toBe('finished')
    expect(existsSync(join(vault, 'Projects/Plan.md'))).toBe(false)
    expect(read('Archive/Plan 2024.md')).toBe('---\nstatus: done\n# kept\ntags: [project]\n---\n# Plan\n\nShip it. ^goal\n')
    expect(read('Weekly.md')).toBe(
      'See [[Plan 2024]] and [[Plan 2024#^goal|the goal]].\n\n| note | why |\n| --- | --- |\n| [[Plan 2024\\|plan]] | work |\n\nCode stays: `[[Plan]]`\n',
    )
    expect(read('周报/本周.md')).toBe('计划见 [计划](../Archive/Plan%202024.md)。\n')

    // The rename's card shows what it changed, as the dialog did.
    const changed = page.locator('[data-testid="iteration-card"][data-iteration="1"]').getByTestId('call-change')
    await changed.locator('summary').click()
    expect(await changed.getByTestId('change-note').count()).toBe(3)
    expect(await changed.getByTestId('change-reach').textContent()).toBe('4 links change in 2 notes')
    await shot(page, 'vault-card-change.png')
    await ctx.close()
  })

  it('undoes an edit from its card: refused while a later edit stands, then a rename as one', async () => {
    expect(renameRun).not.toBe('')
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await openRun(page, renameRun)
    const card = (n: number) => page.locator(`[data-testid="iteration-card"][data-iteration="${n}"]`).getByTestId('call-change')
    const renamed = { plan: read('Archive/Plan 2024.md'), weekly: read('Weekly.md'), zh: read('周报/本周.md') }

    // The rename first: the property set after it changed the note since.
    await card(1).locator('summary').click()
    await card(1).getByTestId('undo-edit').click()
    const refusal = card(1).getByTestId('undo-error')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain('Archive/Plan 2024.md changed after the edit')
    expect({ plan: read('Archive/Plan 2024.md'), weekly: read('Weekly.md'), zh: read('周报/本周.md') }).toEqual(renamed)
    await shot(page, 'vault-undo-refused.png')

    // The property's undo, then the rename's.
    await card(2).locator('summary').click()
    await card(2).getByTestId('undo-edit').click()
    await card(2).getByTestId('call-undone').waitFor()
    expect(read('Archive/Plan 2024.md')).toBe(notes['Projects/Plan.md'])
    await card(1).getByTestId('undo-edit').click()
    await card(1).getByTestId('call-undone').waitFor()
    expect(await card(1).getByTestId('undo-error').count()).toBe(0)
    for (const [p, text] of Object.entries(notes)) expect(read(p)).toBe(text)
    expect(existsSync(join(vault, 'Archive/Plan 2024.md'))).toBe(false)
    await shot(page, 'vault-undone.png')

    // Kept with the run: a reload shows both undone, with no Undo to offer.
    await page.reload()
    await card(1).getByTestId('call-undone-tag').waitFor()
    await card(1).locator('summary').click()
    expect(await card(1).getByTestId('undo-edit').count()).toBe(0)
    expect(await card(2).getByTestId('call-undone-tag').count()).toBe(1)
    await ctx.close()
  })

  it('opens a note a tool read in the inspector, rendered, its wikilinks and backlinks followed', async () => {
    await model.script([
      { content: 'Reading the week.', tool_calls: [call('n1', 'read_note', { note: '[[Weekly]]' })] },
      { content: 'The week points at the plan.' },
    ])
    const res = await served.api('POST', '/api/runs', { task: 'What is in my weekly note?', workspace })
    const runId = ((await res.json()) as { run_id: string }).run_id
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await openRun(page, runId)
    await expect.poll(async () => page.getByTestId('run-status').first().getAttribute('data-status'), { timeout: 15000 }).toBe('finished')

    await page.locator('[data-testid="iteration-card"][data-iteration="1"]').getByTestId('call-open-note').click()
    const view = page.getByTestId('inspector').getByTestId('note-view')
    await expect.poll(() => view.getAttribute('data-path')).toBe('Weekly.md')
    expect(await view.getByTestId('note-obsidian').getAttribute('href')).toBe(`obsidian://open?vault=vault&file=Weekly`)
    // Rendered: the table is a table, the link in code stays code.
    expect(await view.getByTestId('note-text').locator('table').count()).toBe(1)
    expect(await view.getByTestId('note-text').locator('code').textContent()).toBe('[[Plan]]')
    const links = view.getByTestId('note-wikilink')
    expect(await links.allTextContents()).toEqual(['Plan', 'the goal', 'plan'])
    expect(await view.getByTestId('note-backlinks').textContent()).toContain('No note links here.')

    // A wikilink leads to the plan, inside the vault, with its backlinks.
    await links.first().click()
    await expect.poll(() => view.getAttribute('data-path')).toBe('Projects/Plan.md')
    expect(await view.getByTestId('note-front').textContent()).toContain('status: draft')
    expect(await view.getByTestId('note-backlink').allTextContents()).toContain('Weekly.md')
    await shot(page, 'vault-note-view.png')
    await view.getByTestId('note-back').click()
    await expect.poll(() => view.getAttribute('data-path')).toBe('Weekly.md')
    await ctx.close()
  })
})
