import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from './api'
import { createHttpApi } from './http'
import { createApi } from './transport'
import type { HermesEvent } from './types'
import { sampleEvents } from '../lib/fixture'

// A real HTTP server on loopback that answers like `hermes serve`.
let server: Server
let base = ''
const seen: { method: string; url: string; body: string; type: string }[] = []
// Stream requests wait here until the test answers them.
const streams: { url: string; res: ServerResponse; id: string }[] = []
let streamArrived: (() => void) | null = null
let changeArrived: (() => void) | null = null
let streamCount = 0

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = ''
    req.on('data', (b: Buffer) => (body += b.toString()))
    req.on('end', () => resolve(body))
  })
}

// serve answers as hermes serve would; node:http does not wait for it, and a
// failure in it fails the run as an unhandled rejection.
async function serve(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? ''
  const body = await readBody(req)
  seen.push({ method: req.method ?? '', url, body, type: req.headers['content-type'] ?? '' })
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(value))
  }
  if (req.method === 'GET' && url.startsWith('/api/stream')) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' })
    const id = `s${++streamCount}`
    res.write(`: hello\n\nevent: stream\ndata: {"stream_id":"${id}"}\n\n`)
    streams.push({ url, res, id })
    streamArrived?.()
    return
  }
  if (req.method === 'POST' && url.startsWith('/api/stream/')) {
    changeArrived?.()
    if (body.includes('"gone"')) return json(404, { error: { code: 'run_not_found', message: { en: 'no run gone' } } })
    if (!streams.some((s) => url === `/api/stream/${s.id}` && !s.res.destroyed)) return json(404, { error: { code: 'no_stream', message: { en: 'no stream' } } })
    return (res.writeHead(204), res.end())
  }
  if (req.method === 'GET' && url === '/api/runs') return json(200, null)
  if (req.method === 'GET' && url === '/api/runs?limit=2') return json(200, { runs: [{ run_id: 'b' }, { run_id: 'a' }], next: 'a' })
  if (req.method === 'GET' && url === '/api/runs?limit=2&before=a') return json(200, { runs: [] })
  if (req.method === 'GET' && url === '/api/runs?limit=50&before=z&label=bad') return json(200, { runs: [{ run_id: 'y' }] })
  if (req.method === 'GET' && url === '/api/runs/r1/events') return json(200, sampleEvents)
  if (req.method === 'POST' && url === '/api/runs') return json(201, { run_id: 'new1' })
  if (req.method === 'POST' && url === '/api/runs/r1/fork') return json(201, { run_id: 'fork1' })
  if (req.method === 'POST' && url === '/api/runs/r1/control') return (res.writeHead(202), res.end())
  if (req.method === 'GET' && url === '/api/memory?limit=20') return json(200, [{ id: 7, kind: 'fact', text: 'x', created: '2026-11-30T01:00:00Z' }])
  if (req.method === 'GET' && url === '/api/notices') return json(200, null)
  if (req.method === 'GET' && url === '/api/runs/r1/context/preview') return json(200, { tokens: 10, threshold: 60, window: 100, due: false, folded: 0, turns: [], pinned: [], facts: [] })
  if (req.method === 'POST' && url === '/api/memory/7/pin') return (res.writeHead(204), res.end())
  if (req.method === 'PATCH' || req.method === 'DELETE') return (res.writeHead(204), res.end())
  if (url.startsWith('/api/runs/r1/artifacts')) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Total-Size': '5000' })
    return res.end('head of the output')
  }
  if (url === '/api/runs/a%2Fb/events' || url === '/api/runs/gone/stream?after=0') {
    return json(404, { error: { code: 'run_not_found', message: { en: 'no run a/b', 'zh-CN': '没有运行 a/b' } } })
  }
  res.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html' })
  res.end('<h1>proxy error</h1>')
}

beforeAll(async () => {
  server = createServer((req, res) => void serve(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

const nextStream = () =>
  new Promise<{ url: string; res: ServerResponse; id: string }>((resolve) => {
    const take = () => {
      const s = streams.shift()
      if (s) return resolve(s)
      streamArrived = take
    }
    take()
  })

const sse = (e: HermesEvent) => `event: hermes\ndata: ${JSON.stringify(e)}\n\n`

// nextChange waits for the client's next POST /api/stream/{id} and returns it.
const nextChange = () =>
  new Promise<{ url: string; body: string }>((resolve) => {
    changeArrived = () => {
      changeArrived = null
      setImmediate(() => resolve(seen.filter((r) => r.method === 'POST' && r.url.startsWith('/api/stream/')).at(-1)!))
    }
  })

describe('createHttpApi', () => {
  const api = () => createHttpApi(base, (input, init) => fetch(input, init), { retryMs: 1 })

  it('reads runs (null as none) and events', async () => {
    expect(await api().listRuns()).toEqual([])
    expect(await api().runEvents('r1')).toEqual(sampleEvents)
  })

  it('reads the runs a page at a time', async () => {
    expect(await api().listRunsPage('', 2)).toEqual({ runs: [{ run_id: 'b' }, { run_id: 'a' }], next: 'a' })
    expect(await api().listRunsPage('a', 2)).toEqual({ runs: [], next: '' })
  })

  it('asks the server for the runs with a label', async () => {
    expect(await api().listRunsPage('z', 50, 'bad')).toEqual({ runs: [{ run_id: 'y' }], next: '' })
  })

  it('sends controls, starts, forks, renames and deletes with JSON bodies', async () => {
    const a = api()
    expect(await a.startRun({ task: 'Do it', model: 'm' })).toBe('new1')
    expect(await a.forkRun('r1', { iteration: 2, task: 'Other' })).toBe('fork1')
    await a.control('r1', { kind: 'inject', text: 'Be brief' })
    await a.renameRun('r1', 'Title')
    await a.deleteRun('r1')
    expect(seen.slice(-5).map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      'POST /api/runs {"task":"Do it","model":"m"}',
      'POST /api/runs/r1/fork {"iteration":2,"task":"Other"}',
      'POST /api/runs/r1/control {"kind":"inject","text":"Be brief"}',
      'PATCH /api/runs/r1 {"title":"Title"}',
      'DELETE /api/runs/r1 ',
    ])
    // The server refuses a change that is not JSON, a bodyless DELETE too.
    expect(seen.slice(-5).map((s) => s.type)).toEqual(Array(5).fill('application/json'))
  })

  it('reads, pins and forgets memories, previews the context, and follows notices', async () => {
    const a = api()
    expect((await a.memories(20)).map((e) => e.id)).toEqual([7])
    await a.pinMemory(7, true)
    await a.forgetMemory(7)
    expect(seen.slice(-2).map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['POST /api/memory/7/pin {"pinned":true}', 'DELETE /api/memory/7 '])
    expect(seen.slice(-2).map((s) => s.type)).toEqual(['application/json', 'application/json'])
    expect((await a.contextPreview('r1')).threshold).toBe(60)
    expect(await a.notices()).toEqual([])
    const got: string[] = []
    let arrived!: () => void
    const one = new Promise<void>((r) => (arrived = r))
    const stop = a.watchNotices((n) => (got.push(n.kind), arrived()))
    const s = await nextStream()
    expect(s.url).toBe('/api/stream')
    s.res.write(`event: notice\ndata: ${JSON.stringify({ id: 'config', kind: 'config_error', time: 'now' })}\n\n`)
    await one
    expect(got).toEqual(['config_error'])
    const closed = new Promise((r) => s.res.on('close', r))
    stop()
    await closed
    const err = (await a.installUpdate().catch((e: unknown) => e)) as ApiError
    expect(err.code).toBe('restart_unavailable')
    expect(err.messageIn('zh-CN')).toContain('hermes update')
  })

  it('reads a piece of an artifact with its total size', async () => {
    expect(await api().artifact('r1', 'r1/c1', 0, 100)).toEqual({ text: 'head of the output', total: 5000 })
    expect(seen.at(-1)?.url).toBe('/api/runs/r1/artifacts?ref=r1%2Fc1&offset=0&limit=100')
  })

  it('escapes the run id and carries both languages of an error', async () => {
    const err = await api().runEvents('a/b').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    const e = err as ApiError
    expect([e.status, e.code, e.message, e.messageIn('zh-CN')]).toEqual([404, 'run_not_found', 'no run a/b', '没有运行 a/b'])
  })

  it('names the status when the body is not ours', async () => {
    const err = (await api().runEvents('other').catch((e: unknown) => e)) as ApiError
    expect(err.message).toBe('HTTP 502 Bad Gateway')
  })

  it('carries runs, notices and every watched run on one stream, resuming each run from its last seq', async () => {
    const a = api()
    const runs: string[] = []
    const got: Record<string, number[]> = { r1: [], r2: [] }
    let ended = ''
    let wake = () => {}
    const until = (ok: () => boolean) =>
      new Promise<void>((resolve) => {
        wake = () => ok() && resolve()
        wake()
      })
    const stopRuns = a.watchRuns((r) => (runs.push(r.run_id), wake()))
    const first = await nextStream()
    expect(first.url).toBe('/api/stream')
    const change = nextChange()
    const stop1 = a.watchRun('r1', 2, { onEvents: (es) => (got.r1.push(...es.map((e) => e.seq)), wake()) })
    expect(JSON.parse((await change).body)).toEqual({ subscribe: [{ run_id: 'r1', after: 2 }] })
    expect((await change).url).toBe(`/api/stream/${first.id}`)
    a.watchRun('r2', 0, { onEvents: (es) => (got.r2.push(...es.map((e) => e.seq)), wake()), onEnd: () => ((ended = 'r2'), wake()) })

    const other = (e: HermesEvent) => sse({ ...e, run_id: 'r2' })
    first.res.write(sse(sampleEvents[2]) + other(sampleEvents[0]) + sse(sampleEvents[3]) + `event: run\ndata: {"run_id":"x"}\n\n`)
    await until(() => got.r1.length === 2 && got.r2.length === 1 && runs.length === 1)

    // The connection breaks; the next one asks for each run from its last seq.
    const again = nextStream()
    first.res.destroy()
    const second = await again
    expect(second.url).toBe('/api/stream?sub=r1:4&sub=r2:1')
    second.res.write(': heartbeat\n\n' + sse(sampleEvents[3]) + sse(sampleEvents[4]) + other(sampleEvents[1]) + 'event: end\ndata: {"run_id":"r2"}\n\n')
    await until(() => ended === 'r2' && got.r1.length === 3)
    expect(got).toEqual({ r1: [3, 4, 5], r2: [1, 2] })

    // The last watcher of a run unsubscribes it; the last watcher of all closes the stream.
    const unsub = nextChange()
    stop1()
    expect(JSON.parse((await unsub).body)).toEqual({ unsubscribe: ['r1'] })
    const closed = new Promise((r) => second.res.on('close', r))
    stopRuns()
    await closed
  })

  it('ends the watch of a run the server refuses to subscribe', async () => {
    const a = api()
    const stopRuns = a.watchRuns(() => {})
    const s = await nextStream()
    // Wait for the stream's id: the next watch is then asked for by POST.
    const change = nextChange()
    const stop = a.watchRun('r1', 0, { onEvents: () => {} })
    await change
    let ended!: () => void
    const end = new Promise<void>((r) => (ended = r))
    a.watchRun('gone', 0, { onEvents: () => {}, onEnd: ended })
    await end
    stop()
    const closed = new Promise((r) => s.res.on('close', r))
    stopRuns()
    await closed
  })

  it('ends the watch of a run the server refuses', async () => {
    const a = api()
    let ended!: () => void
    const end = new Promise<void>((r) => (ended = r))
    const stop = a.watchRun('gone', 0, { onEvents: () => {}, onEnd: ended })
    const s = await nextStream()
    expect(s.url).toBe('/api/stream?sub=gone:0')
    s.res.write('event: end\ndata: {"run_id":"gone","error":{"code":"run_not_found"}}\n\n')
    await end
    const closed = new Promise((r) => s.res.on('close', r))
    stop()
    await closed
  })
})

describe('createApi', () => {
  it('uses the Wails bindings and events when the window has them', async () => {
    const calls: string[] = []
    const listeners: Record<string, (d: unknown) => void> = {}
    const win = {
      location: { origin: 'http://unused' } as Location,
      runtime: {
        EventsOn: (name: string, cb: (d: unknown) => void) => {
          listeners[name] = cb
          return () => delete listeners[name]
        },
      },
      go: {
        app: {
          App: {
            ListRuns: () => (calls.push('ListRuns'), Promise.resolve(null)),
            RunEvents: (id: string) => {
              calls.push(`RunEvents ${id}`)
              if (id === 'r1') return Promise.resolve(sampleEvents.slice(0, 3))
              // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- Wails rejects a bound method's promise with the Go error's text, a string
              return Promise.reject(JSON.stringify({ error: { code: 'run_not_found', message: { en: 'no run x', 'zh-CN': '没有运行 x' } } }))
            },
            Language: () => Promise.resolve('zh-CN'),
            StartRun: () => Promise.resolve({ run_id: 'w1' }),
            WatchRun: (watchId: string, runId: string, after: number) => {
              calls.push(`WatchRun ${watchId} ${runId} ${after}`)
              return Promise.resolve()
            },
            UnwatchRun: (watchId: string) => {
              calls.push(`UnwatchRun ${watchId}`)
              return Promise.resolve()
            },
          },
        },
      },
    }
    const api = createApi(win)
    expect(await api.listRuns()).toEqual([])
    expect(await api.language()).toBe('zh-CN')
    expect(await api.startRun({ task: 't' })).toBe('w1')
    const err = (await api.runEvents('x').catch((e: unknown) => e)) as ApiError
    expect([err.code, err.messageIn('zh-CN')]).toEqual(['run_not_found', '没有运行 x'])
    const plain = await api.renameRun('x', 't').catch((e: unknown) => e)
    expect(plain).toBeInstanceOf(ApiError)

    // A watch hears its own run's events on its own name, then the end.
    const got: number[] = []
    let ended = false
    api.watchRun('r1', 1, { onEvents: (es) => got.push(...es.map((e) => e.seq)), onEnd: () => (ended = true) })
    listeners['hermes:watch:1']({ events: sampleEvents.slice(1, 3) })
    listeners['hermes:watch:1']({ end: true })
    expect([got, ended]).toEqual([[2, 3], true])
    expect(listeners['hermes:watch:1']).toBeUndefined()
    const stop = api.watchRun('r1', 3, { onEvents: () => {} })
    stop()
    await new Promise((r) => setTimeout(r, 0))
    expect(calls.filter((c) => /^(Un)?[wW]atchRun/.test(c))).toEqual(['WatchRun 1 r1 1', 'WatchRun 2 r1 3', 'UnwatchRun 2'])
    expect(listeners['hermes:watch:2']).toBeUndefined()
  })

  it('uses HTTP on the page origin without bindings', async () => {
    const api = createApi({ location: { origin: base } as Location })
    expect(await api.runEvents('r1')).toHaveLength(sampleEvents.length)
  })
})
