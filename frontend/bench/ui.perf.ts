// The UI benchmark: a generated run of 1,000 iterations opened in headless
// Chromium through `hermes serve`, and a live run against the scripted
// model. bench/ui.sh prepares the environment:
//   HERMES_BIN          hermes built with -tags headless,ui
//   HERMES_SCRIPTMODEL  the scripted model process
//   HERMES_BENCH_HOME   a home holding the generated run
//   HERMES_BENCH_RUN    its id
//   HERMES_BENCH_OUT    where the figures are written, as JSON
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { chromiumArgs, env } from '../e2e/browser'
import { startModel, type ScriptModel, type Step } from '../e2e/model'
import { serve, type Served } from '../e2e/serve'
import { percentile } from './stats'

const liveIterations = 150
const figures: Record<string, number> = {}
let browser: Browser
let paced: Browser

beforeAll(async () => {
  // Without vsync a frame takes as long as its work, so the time between
  // animation frames measures the page, not the display's refresh rate.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...chromiumArgs, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
  })
  // The live pages draw at the display's rate, as a person's browser does:
  // unpaced, four pages would spend the two cores drawing frames no one sees.
  paced = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs })
})

afterAll(async () => {
  await browser?.close()
  await paced?.close()
  writeFileSync(env('HERMES_BENCH_OUT'), JSON.stringify(figures, null, 2))
})

async function newPage(served: Served, from = browser): Promise<Page> {
  const ctx = await from.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await ctx.newPage()
  // Opening the printed URL sets the token cookie.
  await page.goto(served.url)
  await page.getByTestId('runs-page').waitFor()
  return page
}

// machineLoop times a fixed loop of script: how fast the machine ran in the
// minute of a run, so a slow minute can be told from a slow change.
function machineLoop(): number {
  const t0 = performance.now()
  let x = 0
  for (let i = 0; i < 3e7; i++) x = (x * 31 + i) | 0
  // Kept where anyone could read it, so the loop is not left out as dead code.
  Object.assign(globalThis, { machineLoopSink: x })
  return performance.now() - t0
}

// watchCards records when each card enters the page, and when it is first
// painted (Element Timing: a page behind another is drawn about once a
// second), by the wall clock the server uses too.
function watchCards(): void {
  const seen: Record<string, number> = {}
  const shown: Record<string, number> = {}
  const w = window as unknown as { cardSeen: Record<string, number>; cardShown: Record<string, number>; drawn: number }
  w.cardSeen = seen
  w.cardShown = shown
  w.drawn = 0
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[]) {
      if (e.identifier.startsWith('card-')) shown[e.identifier.slice(5)] ??= performance.timeOrigin + e.renderTime
    }
  }).observe({ type: 'element', buffered: true })
  new MutationObserver(() => {
    // One call per batch of changes to the page: about one per fold drawn.
    w.drawn++
    for (const el of document.querySelectorAll('[data-testid="iteration-card"]')) {
      const n = el.getAttribute('data-iteration') ?? ''
      if (n in seen) continue
      seen[n] = Date.now()
      // Its number's text, painted with the card.
      el.querySelector('.iter-n')?.setAttribute('elementtiming', `card-${n}`)
    }
  }).observe(document.body, { childList: true, subtree: true })
}

interface CPUProfile {
  nodes: { id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

// totalTime sums a CPU profile's samples by function with all it called
// (a function on a stack twice counts once): React's phases and components.
function totalTime(profile: CPUProfile, keep: (name: string) => boolean = () => true): [string, number][] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000))
  const total = new Map<string, number>()
  const walk = (id: number, onStack: Set<string>): number => {
    const n = nodes.get(id)
    if (!n) return 0
    const name = n.callFrame.functionName || '(anonymous)'
    const first = !onStack.has(name)
    if (first) onStack.add(name)
    let ms = self.get(id) ?? 0
    for (const c of n.children ?? []) ms += walk(c, onStack)
    if (first) {
      onStack.delete(name)
      total.set(name, (total.get(name) ?? 0) + ms)
    }
    return ms
  }
  if (profile.nodes.length > 0) walk(profile.nodes[0].id, new Set())
  return [...total]
    .filter(([k]) => keep(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([k, ms]) => [k, Math.round(ms)])
}

interface Trace {
  traceEvents: { name: string; ph: string; dur?: number; args?: { data?: { clip?: number[] } } }[]
}

// traceTotals sums a trace's complete events by name, with their count
// (nested events count within their parents too: Paint within a frame's update).
function traceTotals(trace: Trace): [string, number, number][] {
  const total = new Map<string, [number, number]>()
  for (const e of trace.traceEvents) {
    if (e.ph !== 'X' || !e.dur) continue
    const [ms, n] = total.get(e.name) ?? [0, 0]
    total.set(e.name, [ms + e.dur / 1000, n + 1])
  }
  // What is painted: each Paint's area (its clip's width x height) and the layer it draws.
  const areas = new Map<string, [number, number]>()
  for (const e of trace.traceEvents) {
    const c = e.args?.data?.clip
    if (e.name !== 'Paint' || !e.dur || !c || c.length < 8) continue
    const k = `paint ${Math.round(c[2] - c[0])}x${Math.round(c[5] - c[1])} layer ${(e.args?.data as { layerId?: number }).layerId ?? ''}`
    const [ms, n] = areas.get(k) ?? [0, 0]
    areas.set(k, [ms + e.dur / 1000, n + 1])
  }
  return [...total, ...areas]
    .sort((a, b) => b[1][0] - a[1][0])
    .slice(0, 60)
    .map(([k, [ms, n]]) => [k, Math.round(ms), n])
}

// topSelfTime sums a CPU profile's samples by function (bench/ui.sh builds
// the UI unminified when profiling, so the names read as in the source).
function topSelfTime(profile: CPUProfile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const self = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)
    const k = `${f?.functionName || '(anonymous)'} ${f?.url.split('/').pop() ?? ''}:${f?.lineNumber ?? 0}`
    self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, ms]) => [k, Math.round(ms)])
}

interface MainThread {
  /** Milliseconds the page's main thread spent on tasks, script, layout and style. */
  task: number
  script: number
  layout: number
  style: number
  /** Layouts done: about one per fold drawn, more when a fold forces one. */
  layouts: number
}

// mainThread reads a page's main-thread counters (the DevTools protocol's Performance domain).
async function mainThread(page: Page): Promise<{ read: () => Promise<MainThread> }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  return {
    async read() {
      const { metrics } = await cdp.send('Performance.getMetrics')
      const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]))
      return { task: m.TaskDuration * 1000, script: m.ScriptDuration * 1000, layout: m.LayoutDuration * 1000, style: m.RecalcStyleDuration * 1000, layouts: m.LayoutCount }
    },
  }
}

// processCPU reads the CPU time, in ms, the browser's processes have used:
// the renderers (the pages), and all of them (the GPU and browser processes too).
async function processCPU(browser: Browser): Promise<() => Promise<{ renderer: number; all: number }>> {
  const cdp = await browser.newBrowserCDPSession()
  return async () => {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] }
    const sum = (ps: { cpuTime: number }[]) => ps.reduce((s, p) => s + p.cpuTime * 1000, 0)
    return { renderer: sum(processInfo.filter((p) => p.type === 'renderer')), all: sum(processInfo) }
  }
}

// pagesOpen run pages stay open at once in one browser context: a browser
// opens at most six HTTP/1.1 connections to a host, so each page must hold
// only one stream (GET /api/stream) for all of them to load and stay live.
const pagesOpen = Number(process.env.HERMES_BENCH_PAGES ?? 4)

it(`opens 1,000 iterations in ${pagesOpen} pages and scrolls them end to end`, async () => {
  const served = await serve(env('HERMES_BIN'), env('HERMES_BENCH_HOME'))
  let runs: Page | undefined
  try {
    runs = await newPage(served)
    const runId = env('HERMES_BENCH_RUN')
    const firstRender: number[] = []
    const fetched: number[] = []
    let page = runs
    for (let i = 0; i < pagesOpen; i++) {
      // A new page each time, so the clock starts at its navigation.
      page = await runs.context().newPage()
      await page.goto(`${served.base}#/runs/${runId}`)
      await page.locator('[data-testid="iteration-card"]').first().waitFor({ timeout: 30_000 })
      firstRender.push(await page.evaluate(() => performance.now()))
      // When the run's events had arrived: the rest is decode, fold and layout.
      fetched.push(await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((r) => r.name.endsWith('/events'))?.responseEnd ?? 0))
    }
    figures.first_render_fetched_ms = percentile(fetched, 50)
    figures.events = await page.evaluate(() => Number(document.querySelector('[data-testid="tab-events-list"] .muted')?.textContent?.replace(/\D/g, '') ?? 0))
    figures.first_render_ms = percentile(firstRender, 50)

    const frames = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const el = document.querySelector('[data-testid="timeline"]') as HTMLElement
          el.scrollTop = 0
          const times: number[] = []
          let last = 0
          const step = (ts: number) => {
            if (last > 0) times.push(ts - last)
            last = ts
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) return resolve(times)
            el.scrollTop += 240
            requestAnimationFrame(step)
          }
          requestAnimationFrame(step)
        }),
    )
    figures.scroll_frames = frames.length
    figures.scroll_frame_p95_ms = percentile(frames, 95)
    figures.scroll_frame_p50_ms = percentile(frames, 50)
    const lastCard = await page.locator('[data-testid="iteration-card"]').last().getAttribute('data-iteration')
    expect(Number(lastCard)).toBe(1000)
  } finally {
    // Its pages go before the live run's are opened: they would keep asking
    // the stopped server for their streams and take the cores from them.
    await runs?.context().close()
    await served.stop()
  }
})

it('shows each event of a live run in the page soon after the server emitted it', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hermes-bench-'))
  let model: ScriptModel | undefined
  let served: Served | undefined
  try {
    const home = join(tmp, 'home')
    const workspace = join(tmp, 'workspace')
    mkdirSync(home)
    mkdirSync(workspace)
    writeFileSync(join(workspace, 'lines.txt'), Array.from({ length: liveIterations + 10 }, (_, i) => `line ${i + 1}`).join('\n'))
    model = await startModel(env('HERMES_SCRIPTMODEL'), tmp)
    writeFileSync(join(home, 'hermes.toml'), `version = 1\n\n[model]\nbase_url = "${model.url}"\nmodel = "llmtest-model"\napi_key = "bench"\n\n[agent]\nmax_iterations = ${liveIterations + 5}\n`)
    const steps: Step[] = Array.from({ length: liveIterations }, (_, i) => ({
      content: `Reading line ${i + 1}.`,
      chunks: 2,
      hold: true,
      tool_calls: [{ id: `c${i + 1}`, name: 'read_file', arguments: JSON.stringify({ path: 'lines.txt', offset_line: i + 1, limit_lines: 1 }) }],
    }))
    steps.push({ content: 'Read every line.' })
    await model.script(steps)
    served = await serve(env('HERMES_BIN'), home)
    const first = await newPage(served, paced)
    const res = await served.api('POST', '/api/runs', { task: 'Read lines.txt one line at a time', workspace })
    const { run_id: runId } = (await res.json()) as { run_id: string }
    const pages: Page[] = [first]
    while (pages.length < pagesOpen) {
      const page = await first.context().newPage()
      await page.goto(served.url)
      await page.getByTestId('runs-page').waitFor()
      pages.push(page)
    }
    // One page is in front, drawn at the display's rate, as the tab a person
    // watches; Chromium draws the others a few times a second.
    const front = pages[pages.length - 1]
    await front.bringToFront()
    figures.machine_loop_ms = machineLoop()
    for (const page of pages) await page.evaluate(watchCards)
    // Each page's main-thread time over the live run (Chromium's own counters,
    // CPU time rather than wall-clock): progress shows on a busy machine too.
    const meters = await Promise.all(pages.map((p) => mainThread(p)))
    const before = await Promise.all(meters.map((m) => m.read()))
    const browserCPU = await processCPU(paced)
    const cpuBefore = await browserCPU()
    // A client outside the browser tells the server's share of the delay. It
    // reads with node:http: fetch's streams cost the test process several
    // times the CPU, taken from the pages it measures.
    const arrived: Record<string, number> = {}
    const tap = new Promise<void>((resolve, reject) => {
      const req = httpGet(`${served!.base}api/runs/${runId}/stream`, { headers: { Authorization: `Bearer ${served!.token}` } }, (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          for (const m of chunk.matchAll(/"iteration":(\d+),"type":"iteration\.started"/g)) arrived[m[1]] ??= Date.now()
        })
        res.on('end', resolve)
        res.on('error', reject)
      })
      req.on('error', reject)
    })
    // HERMES_BENCH_PROFILE=1 prints where the page in front spends its script time.
    const cdp = process.env.HERMES_BENCH_PROFILE ? await front.context().newCDPSession(front) : null
    await cdp?.send('Profiler.enable')
    await cdp?.send('Profiler.start')
    // And, with the profile only, where the pages' processes spend their time
    // besides script (style, layout, paint, raster): tracing slows the
    // browser (one paired run: p95 127 ms untraced, 278 ms traced), so the
    // delays are measured untraced otherwise.
    if (cdp) await paced.startTracing(front, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'blink'] })
    const opened = Date.now()
    for (const page of pages) await page.evaluate((h) => (window.location.hash = h), `#/runs/${runId}`)
    // The scripted model answers as a model would: one turn every 40 ms, on
    // its own clock (a request from this process per turn would cost the
    // pages' cores too).
    await model.pace(40)
    for (const page of pages) await page.locator('[data-testid="mark"][data-kind="finished"]').waitFor({ timeout: 60_000 })
    const liveMs = Date.now() - opened
    const after = await Promise.all(meters.map((m) => m.read()))
    const cpuAfter = await browserCPU()
    const drawn = (await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as { drawn: number }).drawn)))).reduce((a, b) => a + b, 0)
    // Per change drawn (about a fold each), the cost whatever the number of folds a busy machine leaves.
    figures.live_draws_per_iteration = drawn / pages.length / liveIterations
    figures.live_renderer_cpu_ms_per_draw = (cpuAfter.renderer - cpuBefore.renderer) / drawn
    figures.live_main_ms_per_draw = (after.reduce((sum, a, i) => sum + a.task - before[i].task, 0)) / drawn
    figures.live_layouts_per_draw = after.reduce((sum, a, i) => sum + a.layouts - before[i].layouts, 0) / drawn
    // CPU time the browser's processes used, per page and iteration: the pages' renderers, and every process (GPU, the browser's own) with them.
    figures.live_renderer_cpu_ms_per_iteration = (cpuAfter.renderer - cpuBefore.renderer) / pages.length / liveIterations
    figures.live_browser_cpu_ms_per_iteration = (cpuAfter.all - cpuBefore.all) / pages.length / liveIterations
    figures.live_browser_cores = (cpuAfter.all - cpuBefore.all) / liveMs
    const spent = (k: keyof MainThread) => after.reduce((sum, a, i) => sum + a[k] - before[i][k], 0) / pages.length / liveIterations
    figures.live_main_ms_per_iteration = spent('task')
    figures.live_script_ms_per_iteration = spent('script')
    figures.live_layout_ms_per_iteration = spent('layout') + spent('style')
    figures.live_main_busy = (spent('task') * liveIterations) / liveMs
    figures.live_layouts_per_iteration = after.reduce((sum, a, i) => sum + a.layouts - before[i].layouts, 0) / pages.length / liveIterations
    const events = (await (await served.api('GET', `/api/runs/${runId}/events`)).json()) as { type: string; iteration: number; time: string }[]
    const started = events.filter((e) => e.type === 'iteration.started' && Date.parse(e.time) > opened + 500)
    const delays: number[] = []
    // Each page's own p95 too: a slow tail on every page, or one page behind.
    const pageP95: number[] = []
    const paintedBehind: number[] = []
    for (const page of pages) {
      const { cardSeen, cardShown } = await page.evaluate(() => {
        const w = window as unknown as { cardSeen: Record<string, number>; cardShown: Record<string, number> }
        return { cardSeen: w.cardSeen, cardShown: w.cardShown }
      })
      const since = (at: Record<string, number>) => started.map((e) => at[String(e.iteration)] - Date.parse(e.time)).filter((d) => Number.isFinite(d))
      const mine = since(cardSeen)
      const painted = since(cardShown)
      if (mine.length > 0) pageP95.push(percentile(mine, 95))
      if (page === front) {
        figures.live_front_cards = mine.length
        figures.live_front_delay_p95_ms = percentile(mine, 95)
        figures.live_front_delay_p50_ms = percentile(mine, 50)
        figures.live_front_shown_p95_ms = percentile(painted, 95)
      } else paintedBehind.push(...painted)
      delays.push(...mine)
    }
    if (paintedBehind.length > 0) figures.live_behind_shown_p95_ms = percentile(paintedBehind, 95)
    figures.live_delay_p95_best_page_ms = Math.min(...pageP95)
    figures.live_delay_p95_worst_page_ms = Math.max(...pageP95)
    await tap
    if (cdp) {
      const trace = JSON.parse((await paced.stopTracing()).toString()) as Trace
      // Paints and raster per change drawn: how much of the page each change
      // repaints, whatever the machine's speed (the count, not the time).
      const sum = (name: string) => trace.traceEvents.filter((e) => e.name === name && e.ph === 'X' && e.dur).reduce(([ms, n], e) => [ms + (e.dur ?? 0) / 1000, n + 1], [0, 0])
      const [paintMs, paints] = sum('Paint')
      const [rasterMs, rasters] = sum('RasterTask')
      figures.live_paints_per_draw = paints / drawn
      figures.live_paint_ms_per_draw = paintMs / drawn
      figures.live_raster_tiles_per_draw = rasters / drawn
      figures.live_raster_ms_per_draw = rasterMs / drawn
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CPUProfile }
      console.log('trace, ms by event (all the pages and threads):', traceTotals(trace))
      console.log('self time by function, ms:', topSelfTime(profile))
      console.log('total time by function (with what it called), ms:', totalTime(profile))
      // React components are named as in the source, with a capital.
      console.log('total time by component, ms:', totalTime(profile, (name) => /^[A-Z][a-z]/.test(name)))
    }
    figures.live_server_p95_ms = percentile(started.map((e) => arrived[String(e.iteration)] - Date.parse(e.time)).filter((d) => Number.isFinite(d)), 95)
    figures.live_pages = pages.length
    figures.live_cards = delays.length
    figures.live_delay_p95_ms = percentile(delays, 95)
    figures.live_delay_p50_ms = percentile(delays, 50)
    // The page in front took most cards as they came; the pages behind fold at
    // their rare frames and draw only the end, so cards they scrolled past
    // never enter them, and each shows the run finished (waited for above).
    expect(figures.live_front_cards).toBeGreaterThan(liveIterations / 2)
  } finally {
    await served?.stop()
    await model?.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
})
