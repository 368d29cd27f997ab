import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createApi } from './api'
import { createHttpApi } from './http'
import { sampleEvents } from '../lib/fixture'

// A real HTTP server on loopback that answers like `hermes serve`.
let server: Server
let base = ''
const seen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '')
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.url === '/api/runs') return json(200, null)
    if (req.url === '/api/runs/r1/events') return json(200, sampleEvents)
    if (req.url === '/api/runs/a%2Fb/events') {
      return json(404, { error: { code: 'run_not_found', message: { en: 'no run a/b', 'zh-CN': '没有运行 a/b' } } })
    }
    res.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html' })
    res.end('<h1>proxy error</h1>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('createHttpApi', () => {
  const api = () => createHttpApi(base, (input, init) => fetch(input, init))

  it('reads runs (null as none) and events', async () => {
    expect(await api().listRuns()).toEqual([])
    expect(await api().runEvents('r1')).toEqual(sampleEvents)
  })

  it('escapes the run id and carries both languages of an error', async () => {
    const err = await api().runEvents('a/b').catch((e: unknown) => e)
    expect(seen).toContain('/api/runs/a%2Fb/events')
    expect(err).toBeInstanceOf(ApiError)
    const e = err as ApiError
    expect([e.status, e.code, e.message, e.messageIn('zh-CN')]).toEqual([404, 'run_not_found', 'no run a/b', '没有运行 a/b'])
  })

  it('names the status when the body is not ours', async () => {
    const err = (await api().runEvents('other').catch((e: unknown) => e)) as ApiError
    expect(err.message).toBe('HTTP 502 Bad Gateway')
    expect(err.messageIn('zh-CN')).toBe('HTTP 502 Bad Gateway')
  })
})

describe('createApi', () => {
  it('uses the Wails bindings when the window has them, and wraps their rejections', async () => {
    const calls: string[] = []
    const win = {
      location: { origin: 'http://unused' } as Location,
      go: {
        app: {
          App: {
            ListRuns: async () => (calls.push('ListRuns'), null),
            RunEvents: async (id: string) => {
              calls.push(`RunEvents ${id}`)
              throw 'run x not found; run `hermes runs` to see the runs'
            },
            Language: async () => 'zh-CN',
          },
        },
      },
    }
    const api = createApi(win)
    expect(await api.listRuns()).toEqual([])
    expect(await api.language()).toBe('zh-CN')
    const err = (await api.runEvents('x').catch((e: unknown) => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err.message).toBe('run x not found; run `hermes runs` to see the runs')
    expect(calls).toEqual(['ListRuns', 'RunEvents x'])
  })

  it('uses HTTP on the page origin without bindings', async () => {
    const api = createApi({ location: { origin: base } as Location })
    expect(await api.runEvents('r1')).toHaveLength(sampleEvents.length)
  })
})
