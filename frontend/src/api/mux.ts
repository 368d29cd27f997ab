// One multiplexed event stream per page (GET /api/stream): the runs list's
// changes, the notices and the events of every run the page watches come on
// one connection. A browser opens at most six HTTP/1.1 connections to a
// host; a stream per run, per list and per notice board hung the third page.

import type { EventHandlers } from './api'
import { ApiError } from './api'
import { createSSEParser, type SSEMessage } from './sse'
import type { HermesEvent, Notice, RunSummary } from './types'

export interface MuxDeps {
  base: string
  fetchFn: (input: string, init?: RequestInit) => Promise<Response>
  /** post sends a JSON change to the server and throws an ApiError when it is refused. */
  post: (path: string, body: unknown) => Promise<void>
  toError: (res: Response) => Promise<ApiError>
  retryMs: number
}

export interface Mux {
  watchRun(runId: string, after: number, handlers: EventHandlers): () => void
  watchRuns(onRun: (run: RunSummary) => void): () => void
  watchNotices(onNotice: (n: Notice) => void): () => void
}

interface RunWatcher {
  /** The last seq this watcher got: a resubscription from further back repeats events it drops. */
  last: number
  handlers: EventHandlers
}

interface RunSub {
  watchers: Set<RunWatcher>
  /** The seq to resume from: the last one the stream gave for this run. */
  after: number
}

/** createMux opens the stream when the first watcher comes and closes it when the last one goes. */
export function createMux(deps: MuxDeps): Mux {
  const runs = new Map<string, RunSub>()
  const onRuns = new Set<(run: RunSummary) => void>()
  const onNotices = new Set<(n: Notice) => void>()
  let conn: AbortController | null = null
  // The id the open stream announced; null while it connects.
  let streamId: string | null = null

  const idle = () => runs.size === 0 && onRuns.size === 0 && onNotices.size === 0

  const ensure = () => {
    if (idle()) {
      conn?.abort()
      conn = null
      streamId = null
    } else if (!conn) {
      conn = new AbortController()
      void loop(conn)
    }
  }

  const end = (runId: string, sub: RunSub) => {
    if (runs.get(runId) !== sub) return
    runs.delete(runId)
    for (const w of sub.watchers) w.handlers.onEnd?.()
    ensure()
  }

  // Changes go one after another, so an unsubscribe never overtakes the
  // subscribe before it.
  let changes = Promise.resolve()
  const change = (sid: string, body: unknown): Promise<void> => {
    const sent = changes.then(() => deps.post(`/api/stream/${encodeURIComponent(sid)}`, body))
    changes = sent.catch(() => {})
    return sent
  }
  // Runs to ask for once the stream that connects has announced its id.
  const pending = new Set<string>()

  // subscribe asks the open stream for runId's events from sub.after.
  const subscribe = (runId: string, sub: RunSub) => {
    const sid = streamId
    if (sid === null) {
      pending.add(runId)
      return
    }
    change(sid, { subscribe: [{ run_id: runId, after: sub.after }] }).catch((err: unknown) => {
      // A stream that went away is reconnected with every subscription in its URL.
      if (err instanceof ApiError && err.code === 'no_stream') return
      end(runId, sub)
    })
  }

  const deliver = (ms: SSEMessage[]) => {
    const batches = new Map<string, HermesEvent[]>()
    for (const m of ms) {
      switch (m.event) {
        case 'stream':
          streamId = (JSON.parse(m.data) as { stream_id: string }).stream_id
          break
        case 'hermes': {
          const e = JSON.parse(m.data) as HermesEvent
          const batch = batches.get(e.run_id)
          if (batch) batch.push(e)
          else batches.set(e.run_id, [e])
          break
        }
        case 'end': {
          const id = (JSON.parse(m.data) as { run_id: string }).run_id
          flush(id, batches.get(id))
          batches.delete(id)
          const sub = runs.get(id)
          if (sub) end(id, sub)
          break
        }
        case 'run':
          for (const f of onRuns) f(JSON.parse(m.data) as RunSummary)
          break
        case 'notice':
          for (const f of onNotices) f(JSON.parse(m.data) as Notice)
          break
      }
    }
    for (const [id, batch] of batches) flush(id, batch)
  }

  const flush = (runId: string, batch: HermesEvent[] | undefined) => {
    const sub = runs.get(runId)
    if (!sub || !batch || batch.length === 0) return
    sub.after = Math.max(sub.after, batch[batch.length - 1].seq)
    for (const w of sub.watchers) {
      const mine = batch[0].seq > w.last ? batch : batch.filter((e) => e.seq > w.last)
      if (mine.length === 0) continue
      w.last = mine[mine.length - 1].seq
      w.handlers.onEvents(mine)
    }
  }

  async function loop(ctl: AbortController): Promise<void> {
    while (!ctl.signal.aborted) {
      try {
        pending.clear() // every run watched is in the URL
        const q = [...runs].map(([id, sub]) => `sub=${encodeURIComponent(id)}:${sub.after}`)
        const res = await deps.fetchFn(`${deps.base}/api/stream${q.length > 0 ? `?${q.join('&')}` : ''}`, {
          headers: { Accept: 'text/event-stream' },
          credentials: 'same-origin',
          signal: ctl.signal,
        })
        if (!res.ok || !res.body) throw await deps.toError(res)
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
        let batch: SSEMessage[] = []
        const parse = createSSEParser((m) => batch.push(m))
        for (;;) {
          const { value, done } = await reader.read()
          if (done || ctl.signal.aborted) break
          parse(value)
          if (batch.length === 0) continue
          const ms = batch
          batch = []
          deliver(ms)
          if (streamId !== null && pending.size > 0) {
            const ids = [...pending]
            pending.clear()
            for (const id of ids) {
              const sub = runs.get(id)
              if (sub) subscribe(id, sub)
            }
          }
        }
      } catch (err) {
        if (ctl.signal.aborted) return
        // A refused request (no token) will not get better by retrying.
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) return
      }
      if (conn === ctl) streamId = null
      if (ctl.signal.aborted) return
      await new Promise((r) => setTimeout(r, deps.retryMs))
    }
  }

  return {
    watchRun(runId, after, handlers) {
      const w: RunWatcher = { last: after, handlers }
      let sub = runs.get(runId)
      if (!sub) {
        sub = { watchers: new Set([w]), after }
        runs.set(runId, sub)
        subscribe(runId, sub)
      } else {
        sub.watchers.add(w)
        // A watcher from further back: the run is asked for again from there.
        if (after < sub.after) {
          sub.after = after
          subscribe(runId, sub)
        }
      }
      ensure()
      return () => {
        const s = runs.get(runId)
        if (s !== sub || !s.watchers.delete(w)) return
        if (s.watchers.size === 0) {
          runs.delete(runId)
          pending.delete(runId)
          const sid = streamId
          if (sid !== null) change(sid, { unsubscribe: [runId] }).catch(() => {})
        }
        ensure()
      }
    },
    watchRuns(onRun) {
      const f = (r: RunSummary) => onRun(r)
      onRuns.add(f)
      ensure()
      return () => {
        onRuns.delete(f)
        ensure()
      }
    },
    watchNotices(onNotice) {
      const f = (n: Notice) => onNotice(n)
      onNotices.add(f)
      ensure()
      return () => {
        onNotices.delete(f)
        ensure()
      }
    },
  }
}
