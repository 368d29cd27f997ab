import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { onTestFailed } from 'vitest'

// Headless Chromium for scripts/e2e.sh: no sandbox, since the tests may run
// as root; no GPU; and nothing that reaches past the loopback server.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const artifacts = process.env.HERMES_ARTIFACTS ?? join(process.cwd(), '..', '.artifacts')

export function env(name: string): string {
  const v = process.env[name]
  if (!v) throw new Error(`${name} is not set; run scripts/e2e.sh`)
  return v
}

export async function launch(): Promise<Browser> {
  mkdirSync(artifacts, { recursive: true })
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs })
}

export interface PageOptions {
  locale?: string
  colorScheme?: 'light' | 'dark'
  width?: number
  height?: number
}

/** openPage opens a page in a fresh context; a failing test leaves its screenshot in the artifacts. */
export async function openPage(browser: Browser, opts: PageOptions = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.colorScheme ?? 'light',
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
  })
  // Fail in seconds, not the default half minute: the server is local.
  ctx.setDefaultTimeout(10_000)
  const page = await ctx.newPage()
  onTestFailed(async ({ task }) => {
    await page.screenshot({ path: join(artifacts, `failed-${task.name.replace(/\W+/g, '-')}.png`) }).catch(() => {})
  })
  return { ctx, page }
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, name) })

/**
 * controlTaken resolves when the server has answered a control (pause, stop,
 * inject, pin) posted for the run, so a test releases the scripted model only
 * after the run can meet the control at its next safe point, however busy
 * the machine is. Call it before the click that posts the control.
 */
export async function controlTaken(page: Page, runId: string): Promise<void> {
  const res = await page.waitForResponse((r) => r.url().endsWith(`/api/runs/${runId}/control`) && r.request().method() === 'POST')
  if (!res.ok()) throw new Error(`the control for ${runId} was refused: ${res.status()}`)
}
