// End-to-end: a vault edit is approved by its change, not its arguments. A
// real `hermes serve` with an Obsidian vault; the scripted model renames a
// note linked from others (a table's escaped pipe, a block, a Markdown
// link, a link in code that stays), then sets a property. The approval
// dialog shows each note whose links change, before → after, and the
// property's values; the notes on disk follow once approved, and the
// call's card shows what it changed.
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

async function approve(page: Page) {
  const dialog = page.getByTestId('approval-dialog')
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
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await page.goto(served.url)
    await page.getByTestId('runs-page').waitFor()
    await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)

    const dialog = page.getByTestId('approval-dialog')
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
    await approve(page)

    const props = page.getByTestId('approval-dialog').getByTestId('change-properties')
    await props.waitFor()
    expect(await props.textContent()).toBe('status: draft → done')
    await shot(page, 'vault-approval-property.png')
    await approve(page)

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
})
