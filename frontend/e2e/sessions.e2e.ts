// End-to-end: a browser's hold on `hermes serve`. The tabs of one server
// stay logged in when another server on another port is opened in the same
// browser, and when their own server starts again on the same home and
// port; the sample run is still listed then, after the runs of one's own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env, launch, openPage } from './browser'
import { startModel, type ScriptModel } from './model'
import { serve, type Served } from './serve'

let browser: Browser
let model: ScriptModel
let tmp: string
const servers: Served[] = []

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hermes-e2e-sessions-'))
  model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  // SIGTERM is a clean stop for `hermes serve`.
  expect(await Promise.all(servers.map((s) => s.stop()))).toEqual(servers.map(() => 0))
  await model?.stop()
  rmSync(tmp, { recursive: true, force: true })
})

/** freePort is a loopback port nothing listens on, to serve on again after a restart. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** home makes a home whose model is the scripted one, and a workspace beside it. */
function home(name: string): { home: string; workspace: string } {
  const dirs = { home: join(tmp, name), workspace: join(tmp, `${name}-ws`) }
  mkdirSync(dirs.home)
  mkdirSync(dirs.workspace)
  writeFileSync(
    join(dirs.home, 'hermes.toml'),
    `version = 1\n\n[model]\nbase_url = "${model.url}"\nmodel = "llmtest-model"\napi_key = "e2e-key"\n\n[agent]\nstrategy = "react"\nroute = false\n`,
  )
  return dirs
}

async function start(dir: string, port: number): Promise<Served> {
  const s = await serve(env('HERMES_BIN'), dir, {}, `127.0.0.1:${port}`)
  servers.push(s)
  return s
}

async function stop(s: Served): Promise<void> {
  servers.splice(servers.indexOf(s), 1)
  expect(await s.stop()).toBe(0)
}

/** runTask runs a task to its end on s and returns its id. */
async function runTask(s: Served, workspace: string, task: string): Promise<string> {
  await model.script([{ content: 'Done.' }])
  const res = await s.api('POST', '/api/runs', { task, workspace })
  expect(res.status).toBe(201)
  const id = ((await res.json()) as { run_id: string }).run_id
  await expect.poll(async () => ((await (await s.api('GET', '/api/runs')).json()) as { run_id: string; status: string }[]).find((r) => r.run_id === id)?.status).toBe('finished')
  return id
}

/** rows are the ids of the runs the page lists, and "sample" for the sample run. */
const rows = (page: Page) =>
  page.getByTestId('run-row').evaluateAll((els) => els.map((e) => (e.getAttribute('data-sample') === 'true' ? 'sample' : (e.getAttribute('data-run-id') ?? ''))))

/** listed loads base in page and resolves with what it lists, or the page's text when it lists nothing. */
async function listed(page: Page, base: string): Promise<string[]> {
  await page.goto(base)
  await expect.poll(async () => (await page.getByTestId('run-row').count()) > 0 || (await page.locator('body').innerText()).includes('token')).toBe(true)
  const ids = await rows(page)
  return ids.length > 0 ? ids : [await page.locator('body').innerText()]
}

describe('the browser and hermes serve', () => {
  it('keeps each server’s tabs logged in beside another server and across a restart, the sample listed last', async () => {
    const a = home('a')
    const b = home('b')
    const [portA, portB] = [await freePort(), await freePort()]
    let servedA = await start(a.home, portA)
    const { ctx, page } = await openPage(browser, { width: 1280, height: 720 })
    await page.goto(servedA.url)
    expect(await listed(page, servedA.base)).toEqual(['sample'])

    // A second server on another port, opened in another tab of the same
    // browser, does not log the first one's tabs out.
    const servedB = await start(b.home, portB)
    const other = await ctx.newPage()
    await other.goto(servedB.url)
    expect(await listed(other, servedB.base)).toEqual(['sample'])
    expect(await listed(page, servedA.base)).toEqual(['sample'])

    // A run of one's own comes first; the sample stays, last.
    const first = await runTask(servedA, a.workspace, 'Say done')
    await expect.poll(() => rows(page)).toEqual([first, 'sample'])

    // The first server starts again on the same home and port: the open tab
    // stays in without being reloaded (a run started now comes into its
    // list), and a reload lists the same runs, the sample still last.
    const reconnected = page.waitForResponse((r) => r.url().includes('/api/stream') && r.status() === 200, { timeout: 20_000 })
    await stop(servedA)
    servedA = await start(a.home, portA)
    await reconnected
    const second = await runTask(servedA, a.workspace, 'Say done again')
    await expect.poll(() => rows(page)).toEqual([second, first, 'sample'])
    expect(await listed(page, servedA.base)).toEqual([second, first, 'sample'])
    expect(await listed(other, servedB.base)).toEqual(['sample'])
    await ctx.close()
  })
})
