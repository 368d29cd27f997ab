import { describe, expect, it } from 'vitest'
import type { ClusterStatus } from '../api/types'
import { clusterTasks, noCluster, replicaOf, replicaStale, sinceMs } from './cluster'

const now = Date.parse('2026-12-01T12:00:00Z')

const status: ClusterStatus = {
  enabled: true,
  replicas: [
    {
      id: 'hermes-bot a/1',
      host: 'a',
      pid: 1,
      started: '2026-12-01T11:00:00Z',
      last_seen: '2026-12-01T11:59:58Z',
      tasks: [{ user: 'alice', id: 'm1', seq: 7, started: '2026-12-01T11:59:50Z' }],
    },
    {
      id: 'hermes-bot b/2',
      host: 'b',
      pid: 2,
      started: '2026-12-01T11:00:00Z',
      last_seen: '2026-12-01T11:58:00Z',
      tasks: [
        { user: 'bob', id: 'm2', seq: 3, started: '2026-12-01T11:59:00Z' },
        { user: '张三', id: 'm3', seq: 9, started: '2026-12-01T11:59:50Z' },
      ],
    },
  ],
  queue: { waiting: 4, running: 3, redelivered: 1 },
}

describe('cluster', () => {
  it('lists every replica’s tasks, the longest running first, with its replica', () => {
    const rows = clusterTasks(status, now)
    expect(rows.map((r) => [r.user, r.replica, r.runningMs])).toEqual([
      ['bob', 'hermes-bot b/2', 60_000],
      ['alice', 'hermes-bot a/1', 10_000],
      ['张三', 'hermes-bot b/2', 10_000],
    ])
  })

  it('has no tasks without a cluster', () => {
    expect(clusterTasks(noCluster, now)).toEqual([])
    expect(noCluster.enabled).toBe(false)
  })

  it('names the replica of a cluster run and none for the home’s', () => {
    expect(replicaOf({ replica: 'hermes-bot a/1' })).toBe('hermes-bot a/1')
    expect(replicaOf({})).toBe('')
  })

  it('says how long ago a replica was seen, and when it missed three beats', () => {
    expect(sinceMs('2026-12-01T11:59:58Z', now)).toBe(2_000)
    expect(sinceMs(undefined, now)).toBe(0)
    expect(sinceMs('2026-12-01T12:00:05Z', now)).toBe(0)
    expect(replicaStale(status.replicas[0], now)).toBe(false)
    expect(replicaStale(status.replicas[1], now)).toBe(true)
  })
})
