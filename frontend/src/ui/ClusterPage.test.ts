import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ClusterStatus, RunSummary } from '../api/types'
import { translator, type Lang } from '../i18n/i18n'
import { createClusterStore } from '../store/cluster'
import { testApi } from '../store/testapi'
import { ClusterView } from './ClusterPage'
import { ReplicaLabel } from './ReplicaTag'

const cluster: ClusterStatus = {
  enabled: true,
  replicas: [
    {
      id: 'hermes-bot a/1',
      host: 'a',
      pid: 1,
      version: '1.4.0',
      started: '2026-12-01T11:00:00Z',
      last_seen: '2026-12-01T11:59:58Z',
      tasks: [{ user: 'zhangsan', id: 'msg-1', seq: 7, started: '2026-12-01T11:59:30Z' }],
    },
    { id: 'hermes-bot b/2', host: 'b', pid: 2, started: '2026-12-01T11:00:00Z', last_seen: '2026-12-01T11:58:00Z', tasks: [] },
  ],
  queue: { waiting: 4, running: 1, redelivered: 2 },
}

const now = Date.parse('2026-12-01T12:00:00Z')

// view reads the cluster through the store, as the page does, and draws it.
async function view(data: { cluster?: ClusterStatus }, lang: Lang): Promise<string> {
  const store = createClusterStore(testApi(data).api, () => () => {}, () => now)
  await store.load()
  const s = store.get()
  return renderToStaticMarkup(createElement(ClusterView, { t: translator(lang), lang, status: s.status, error: s.error, cluster: s.cluster, now: s.checkedAt, onReload: () => {} }))
}

describe('ClusterView', () => {
  it('shows the replicas, their tasks and the queue', async () => {
    const out = await view({ cluster }, 'en')
    expect(out).toContain('data-testid="cluster-waiting">4<')
    expect(out).toContain('data-testid="cluster-running">1<')
    expect(out).toContain('data-testid="cluster-redelivered">2<')
    expect(out).toContain('Replicas (2)')
    expect(out).toContain('data-replica="hermes-bot a/1"')
    expect(out).toContain('2 s ago')
    // The replica silent for two minutes is flagged.
    expect(out.match(/missed its beats/g)).toHaveLength(1)
    expect(out).toContain('Tasks (1)')
    expect(out).toContain('zhangsan')
    expect(out).toContain('msg-1')
  })

  it('is in Chinese too', async () => {
    const out = await view({ cluster }, 'zh-CN')
    expect(out).toContain('副本（2）')
    expect(out).toContain('2 秒前')
    expect(out).toContain('任务（1）')
  })

  it('says how to turn the cluster on when there is none', async () => {
    const out = await view({}, 'zh-CN')
    expect(out).toContain('data-testid="cluster-off"')
    expect(out).toContain('没有集群')
    expect(out).toContain('[cluster] nats_url')
    expect(out).not.toContain('cluster-replicas')
  })
})

describe('ReplicaLabel', () => {
  const html = (run: Pick<RunSummary, 'replica'>, lang: Lang) => renderToStaticMarkup(createElement(ReplicaLabel, { run, t: translator(lang) }))

  it('names the replica of a cluster run, in either language', () => {
    expect(html({ replica: 'hermes-bot a/1' }, 'en')).toContain('On hermes-bot a/1')
    expect(html({ replica: 'hermes-bot a/1' }, 'zh-CN')).toContain('副本 hermes-bot a/1')
  })

  it('is nothing for a run of this home', () => {
    expect(html({}, 'en')).toBe('')
  })
})
