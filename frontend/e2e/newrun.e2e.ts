// End-to-end: the New run form at 1280×720 against a real `hermes serve`.
// The endpoint's check says one thing per case (a key sent and accepted;
// none sent and none needed), in English and Chinese; an edit of
// hermes.toml that adds a vault and an MCP server reaches the next run
// without a restart, the toast says so, and the Configured panel lists them;
// the vault typed there is saved into hermes.toml, its comments kept; a
// skill of the user's that is broken is named there, with why.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, shot } from './browser'
import { startLive, type Live } from './harness'

let live: Live
let keyless: Server
let keylessURL = ''

const config = (modelURL: string, extra = '') =>
  `version = 1\n\n[model]\nbase_url = "${modelURL}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nstrategy = "react"\nroute = false\n${extra}`

beforeAll(async () => {
  live = await startLive({ prefix: 'hermes-e2e-newrun-', config: ({ modelURL }) => config(modelURL) })
  // A local model server that needs no key, as Ollama and LM Studio: it
  // lists its model to anyone.
  keyless = createServer((_, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-1', object: 'model' }] }))
  })
  await new Promise<void>((done) => keyless.listen(0, '127.0.0.1', done))
  keylessURL = `http://127.0.0.1:${(keyless.address() as { port: number }).port}/v1`
})

afterAll(async () => {
  await new Promise((done) => keyless?.close(done))
  await live?.stop()
})

async function openForm(locale = 'en-US'): Promise<{ page: Page; close: () => Promise<void> }> {
  const { ctx, page } = await openPage(live.browser, { width: 1280, height: 720, locale })
  await page.goto(live.served.url)
  await page.getByTestId('new-run').click()
  await page.getByTestId('new-settings').waitFor()
  await page.getByTestId('new-has-key').waitFor()
  return { page, close: () => ctx.close() }
}

async function check(page: Page): Promise<string> {
  await page.getByTestId('new-check-button').click()
  const shown = page.getByTestId('new-check')
  await shown.waitFor()
  return (await shown.textContent()) ?? ''
}

describe('the New run form', () => {
  it('says one thing of the key per case when the endpoint is checked', async () => {
    const { page, close } = await openForm()
    // The configured endpoint: its key is sent and accepted.
    expect(await check(page)).toContain('answers and accepts the API key sent to it')

    // A local endpoint that needs no key: before the check, the form says no
    // key will be sent there; the check's answer then says it alone.
    await page.getByTestId('new-base-url').fill(keylessURL)
    await page.getByTestId('new-model').fill('mock-1')
    await expect.poll(() => page.getByTestId('new-base-url-hint').getAttribute('data-other')).toBe('true')
    expect(await page.getByTestId('new-base-url-hint').textContent()).toContain('No API key will be sent')
    const said = await check(page)
    expect(said).toContain(`mock-1 at ${keylessURL} answers without an API key: none was sent, and it needs none.`)
    expect(said).not.toContain('accepts')
    expect(await page.getByTestId('new-base-url-hint').getAttribute('data-other')).toBe('false')
    expect(await page.getByTestId('new-check').getAttribute('data-ok')).toBe('true')
    await close()

    const zh = await openForm('zh-CN')
    await zh.page.getByTestId('new-base-url').fill(keylessURL)
    await zh.page.getByTestId('new-model').fill('mock-1')
    expect(await check(zh.page)).toContain('无需 API 密钥即可连接：没有发送密钥，它也不需要。')
    await zh.close()
  })

  it('gives the next run the vault and the MCP server an edit of hermes.toml adds, and lists them', async () => {
    const { page, close } = await openForm()
    await expect.poll(() => page.getByTestId('new-vault').getAttribute('placeholder')).toContain('none')
    expect(await page.getByTestId('new-vault').inputValue()).toBe('')
    expect(await page.getByTestId('new-mcp').textContent()).toContain('none')
    expect(await page.getByTestId('new-skills').textContent()).toContain('files')

    // A run first, so that the process has opened its tools before the edit.
    await live.model.script([{ content: 'Done.' }])
    let res = await live.served.api('POST', '/api/runs', { task: 'Say done', workspace: live.workspace })
    expect(res.status).toBe(201)
    const first = ((await res.json()) as { run_id: string }).run_id
    await expect.poll(async () => ((await (await live.served.api('GET', '/api/runs')).json()) as { run_id: string; status: string }[]).find((r) => r.run_id === first)?.status).toBe('finished')

    const vault = join(live.workspace, 'vault')
    mkdirSync(vault)
    writeFileSync(join(vault, 'Budget.md'), '# Budget\n\nThe garden budget is 300 euros.\n')
    const everything = resolve(process.cwd(), '..', 'tests', 'mcp', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
    writeFileSync(
      join(live.home, 'hermes.toml'),
      config(live.model.url, `\n[obsidian]\nvault = '${vault}'\n\n[[tools.mcp]]\nname = "everything"\ncommand = "node"\nargs = ['${everything}', "stdio"]\nrisk = "read"\n`),
    )
    // The toast says what new runs get, not only that the file changed.
    const toast = page.getByTestId('notice-toast')
    await toast.waitFor({ timeout: 20_000 })
    const told = (await toast.textContent()) ?? ''
    expect(told).toContain(`the vault ${vault}`)
    expect(told).toMatch(/everything \(\d+ tools\)/)

    // The Configured panel lists them for the next run.
    await page.reload()
    await page.getByTestId('new-tools').waitFor()
    expect(await page.getByTestId('new-vault').inputValue()).toBe(vault)
    expect(await page.getByTestId('new-skills').textContent()).toContain('obsidian')
    await expect.poll(() => page.locator('[data-testid="new-mcp-server"][data-name="everything"]').getAttribute('data-state')).toBe('loaded')

    // The next run searches the notes: the vault's tools are there.
    await live.model.script([{ tool_calls: [{ id: 's1', name: 'search_notes', arguments: '{"query":"budget"}' }] }, { content: 'The budget is 300 euros.' }])
    res = await live.served.api('POST', '/api/runs', { task: 'Search my notes for the garden budget', workspace: live.workspace })
    expect(res.status).toBe(201)
    const second = ((await res.json()) as { run_id: string }).run_id
    await expect.poll(async () => ((await (await live.served.api('GET', '/api/runs')).json()) as { run_id: string; status: string }[]).find((r) => r.run_id === second)?.status).toBe('finished')
    const asked = await live.model.requests()
    const result = asked
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .join('\n')
    expect(result).toContain('Budget.md')
    expect(result).not.toContain('no tool named')
    await close()
  })

  it('saves the vault typed in the Configured panel into hermes.toml, its comments kept; a folder that is not there is refused', async () => {
    writeFileSync(join(live.home, 'hermes.toml'), `# my settings, by hand\n${config(live.model.url)}`)
    const { page, close } = await openForm()
    const field = page.getByTestId('new-vault')
    await expect.poll(() => field.inputValue()).toBe('')
    // In a browser the folder is typed: there is no system dialog to open.
    expect(await page.getByTestId('vault-choose').count()).toBe(0)
    expect(await page.getByTestId('vault-save').isDisabled()).toBe(true)

    const missing = join(live.workspace, 'no-such-vault')
    await field.fill(missing)
    await page.getByTestId('vault-save').click()
    await page.getByTestId('vault-error').waitFor()
    expect(await page.getByTestId('vault-error').textContent()).toContain('is not a folder')
    expect(readFileSync(join(live.home, 'hermes.toml'), 'utf8')).not.toContain('no-such-vault')

    const vault = join(live.workspace, 'Typed Vault')
    mkdirSync(vault)
    await field.fill(vault)
    await page.getByTestId('vault-save').click()
    await page.getByTestId('vault-saved').waitFor()
    expect(await page.getByTestId('vault-saved').textContent()).toContain('new runs get this vault')
    const written = readFileSync(join(live.home, 'hermes.toml'), 'utf8')
    expect(written).toContain('# my settings, by hand')
    expect(written).toContain(`[obsidian]\nvault = "${vault}"`)
    await shot(page, 'newrun-vault-saved.png')

    // The page read again shows it as hermes.toml says now.
    await page.reload()
    await expect.poll(() => page.getByTestId('new-vault').inputValue()).toBe(vault)
    await close()
  })

  it('says which of your skills a new run does not get, and why, in the language of the page', async () => {
    const dir = join(live.home, 'skills', 'typo')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'skill.json'), '{"name": "typo", "descripton": "A typo in a key."}')
    try {
      for (const [locale, want] of [
        ['en-US', 'typo is left out: skill file'],
        ['zh-CN', 'typo 未加载：技能文件'],
      ]) {
        const { page, close } = await openForm(locale)
        const failed = page.locator('[data-testid="new-skill-failed"][data-name="typo"]')
        await expect.poll(async () => ((await failed.count()) > 0 ? await failed.textContent() : '')).toContain(want)
        expect(await failed.textContent()).toContain('descripton')
        expect(await page.getByTestId('new-skills').textContent()).toContain('files')
        await failed.scrollIntoViewIfNeeded()
        await shot(page, `newrun-skill-failed-${locale}.png`)
        await close()
      }
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})
