// End-to-end: `hermes serve` attached to a cluster. A NATS server and a bot
// replica (backend/cluster/clustertest/cmd/clusterreplica) run a task
// against the scripted model; the page lists it with its replica, shows the
// Cluster view, and pauses and resumes the task on the replica.
// scripts/e2e.sh passes HERMES_BIN, HERMES_SCRIPTMODEL and HERMES_CLUSTERREPLICA.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface, type Interface } from 'node:readline'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlTaken, env, launch, openPage, shot } from './browser'
import { startModel, type ScriptModel } from './model'
import { serve, type Served } from './serve'

let tmp = ''
let model: ScriptModel | undefined
let replica: ChildProcess | undefined
let lines: Interface | undefined
let served: Served | undefined
let browser: Browser | undefined

// nextLine is the replica's next line of stdout.
function nextLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    lines!.once('line', resolve)
    replica!.once('exit', (code) => reject(new Error(`clusterreplica exited with ${code}`)))
  })
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hermes-e2e-cluster-'))
  model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
  replica = spawn(env('HERMES_CLUSTERREPLICA'), ['--model', model.url, '--name', 'replica-e2e'], { stdio: ['pipe', 'pipe', 'inherit'] })
  lines = createInterface({ input: replica.stdout! })
  const natsURL = await nextLine()
  const home = join(tmp, 'home')
  mkdirSync(home)
  writeFileSync(join(home, 'hermes.toml'), `[cluster]\nnats_url = "${natsURL}"\n`)
  served = await serve(env('HERMES_BIN'), home)
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  const code = await served?.stop()
  replica?.kill('SIGTERM')
  await model?.stop()
  rmSync(tmp, { recursive: true, force: true })
  expect(code).toBe(0)
})

const waiting = async () => (await model!.state()).waiting

describe('hermes serve attached to a cluster', () => {
  it('lists a replica’s task with its replica, shows the cluster, and pauses and resumes the task there', async () => {
    await model!.script([
      { content: 'Listing.', tool_calls: [{ id: 'c1', name: 'list_files', arguments: '{}' }], hold: true },
      { content: 'The workspace is empty.' },
    ])
    replica!.stdin!.write('start list the workspace\n')
    const runId = (await nextLine()).replace(/^run /, '')
    expect(runId).not.toBe('')

    const { ctx, page } = await openPage(browser!)
    await page.goto(served!.url)
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)
    await row.waitFor()
    expect(await row.getByTestId('run-replica').textContent()).toBe('On replica-e2e')

    await page.getByTestId('nav-cluster').click()
    await page.locator('[data-testid="cluster-replica"][data-replica="replica-e2e"]').waitFor()
    await shot(page, 'cluster-view.png')

    await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
    await page.getByTestId('iteration-card').first().waitFor()
    await expect.poll(waiting).toBe(1)
    const pauseTaken = controlTaken(page, runId)
    await page.getByTestId('pause').click()
    await pauseTaken
    await model!.release()
    await expect.poll(() => page.getByTestId('run-state').getAttribute('data-state')).toBe('paused')
    const resumeTaken = controlTaken(page, runId)
    await page.getByTestId('resume').click()
    await resumeTaken
    await expect.poll(() => page.getByTestId('run-status').first().getAttribute('data-status')).toBe('finished')
    await ctx.close()
  })
})
