import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { expect } from 'vitest'
import { env, launch } from './browser'
import { startModel, type ScriptModel } from './model'
import { serve, type Served } from './serve'

/** The directories of a live test, both inside its temp dir. */
export interface LiveDirs {
  home: string
  workspace: string
}

export interface LiveOptions {
  /** prefix names the temp dir, so a left-over one tells which file made it. */
  prefix: string
  /** prepare writes the test's own files into the home or the workspace before anything starts. */
  prepare?: (dirs: LiveDirs) => void
  /** config returns the test's hermes.toml; modelURL is the scripted model's base URL. */
  config: (dirs: LiveDirs & { modelURL: string }) => string
}

export interface Live extends LiveDirs {
  model: ScriptModel
  served: Served
  browser: Browser
  /** stop closes the browser, stops `hermes serve` and the model, removes the temp dir, and expects serve's clean exit. */
  stop(): Promise<void>
}

/**
 * startLive sets up a live end-to-end test: a temp dir with a home and a
 * workspace, the scripted model process, a hermes.toml pointing at it,
 * `hermes serve` on the home and headless Chromium. scripts/e2e.sh passes
 * HERMES_BIN and HERMES_SCRIPTMODEL. If a step fails, what already started
 * is stopped and the temp dir removed before the error is thrown.
 */
export async function startLive(opts: LiveOptions): Promise<Live> {
  const tmp = mkdtempSync(join(tmpdir(), opts.prefix))
  const dirs: LiveDirs = { home: join(tmp, 'home'), workspace: join(tmp, 'workspace') }
  let model: ScriptModel | undefined
  let served: Served | undefined
  let browser: Browser | undefined
  const teardown = async () => {
    await browser?.close()
    const code = await served?.stop()
    await model?.stop()
    rmSync(tmp, { recursive: true, force: true })
    return code
  }
  try {
    mkdirSync(dirs.home)
    mkdirSync(dirs.workspace)
    opts.prepare?.(dirs)
    model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
    writeFileSync(join(dirs.home, 'hermes.toml'), opts.config({ ...dirs, modelURL: model.url }))
    served = await serve(env('HERMES_BIN'), dirs.home)
    browser = await launch()
    return {
      ...dirs,
      model,
      served,
      browser,
      // SIGTERM is a clean stop for `hermes serve`.
      stop: async () => expect(await teardown()).toBe(0),
    }
  } catch (err) {
    await teardown()
    throw err
  }
}
