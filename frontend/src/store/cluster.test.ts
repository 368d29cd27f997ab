import { describe, expect, it } from 'vitest'
import type { ClusterStatus } from '../api/types'
import { createClusterStore } from './cluster'
import { testApi } from './testapi'

const cluster: ClusterStatus = {
  enabled: true,
  replicas: [{ id: 'hermes-bot a/1', host: 'a', pid: 1, started: '2026-12-01T11:00:00Z', last_seen: '2026-12-01T11:59:58Z', tasks: [] }],
  queue: { waiting: 2, running: 0, redelivered: 0 },
}

const flush = () => new Promise((r) => setTimeout(r, 0))

describe('cluster store', () => {
  it('reads the status while watched, and stops with the view', async () => {
    const t = testApi({ cluster })
    const ticks: (() => void)[] = []
    let stopped = false
    const store = createClusterStore(t.api, (fn) => {
      ticks.push(fn)
      return () => (stopped = true)
    }, () => 42)
    const stop = store.watch()
    await flush()
    expect(store.get().status).toBe('ready')
    expect(store.get().cluster.replicas[0].id).toBe('hermes-bot a/1')
    expect(store.get().checkedAt).toBe(42)
    ticks[0]()
    await flush()
    expect(t.calls.filter((c) => c === 'clusterStatus()')).toHaveLength(2)
    stop()
    expect(stopped).toBe(true)
  })

  it('keeps the last status and says why a read failed', async () => {
    const t = testApi({ cluster })
    const store = createClusterStore(t.api, () => () => {})
    await store.load()
    t.fail('clusterStatus', new Error('NATS is down'))
    await store.load()
    expect(store.get().status).toBe('error')
    expect(store.get().error?.message).toBe('NATS is down')
    expect(store.get().cluster.enabled).toBe(true)
  })

  it('says there is no cluster without one', async () => {
    const store = createClusterStore(testApi().api, () => () => {})
    await store.load()
    expect(store.get().cluster.enabled).toBe(false)
  })
})
