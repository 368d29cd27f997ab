import { useEffect, useMemo, useState } from 'react'
import { toApiError } from '../api/api'
import { alignFork, compareRequests, decisionText, splitCallMeta, type Alignment } from '../lib/compare'
import type { RequestContext } from '../lib/context'
import { runHref } from '../lib/route'
import { foldRun, type IterationView } from '../lib/timeline'
import { TextDiffView } from './DiffView'
import { MessageDiff } from './MessageView'
import { useAppState, useAppStore, useRunState, useRunsState, useT } from './appContext'

/**
 * CompareView sets two iterations side by side: what the model was sent in
 * each (messages added, removed and edited, an edit word by word) and what
 * each decided. B is the selected card, so picking a card picks B; A is
 * picked here, the iteration before B until then.
 */
export function CompareView({ n, contexts }: { n: number; contexts: Map<number, RequestContext> }) {
  const t = useT()
  const { run } = useAppStore()
  const iterations = useRunState((s) => (s.replay?.view ?? s.view).iterations)
  const its = useMemo(() => iterations.filter((it) => it.n > 0), [iterations])
  const [picked, setPicked] = useState<number | null>(null)
  const b = its.find((it) => it.n === n) ?? its.at(-1)
  const a = its.find((it) => it.n === picked) ?? [...its].reverse().find((it) => b && it.n < b.n) ?? its[0]
  if (!a || !b) return <p className="muted">{t('inspector.no_context')}</p>
  const pick = (label: string, value: number, onPick: (n: number) => void, testId: string) => (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onPick(Number(e.target.value))} data-testid={testId}>
        {its.map((it) => (
          <option key={it.n} value={it.n}>
            #{it.n}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <div data-testid="compare" data-a={a.n} data-b={b.n}>
      <p className="muted">{t('compare.pick_hint')}</p>
      <div className="compare-picks">
        {pick(t('compare.a'), a.n, setPicked, 'compare-a')}
        {pick(t('compare.b'), b.n, (x) => run.select(x), 'compare-b')}
      </div>
      <section className="compare-section" data-testid="compare-decision">
        <h3>{t('compare.decision')}</h3>
        <TextDiffView a={decisionText(a)} b={decisionText(b)} testId="compare-decision-diff" />
      </section>
      <section className="compare-section" data-testid="compare-messages">
        <h3>{t('compare.messages')}</h3>
        <RequestDiff a={a} b={b} contexts={contexts} />
      </section>
    </div>
  )
}

function RequestDiff({ a, b, contexts }: { a: IterationView; b: IterationView; contexts: Map<number, RequestContext> }) {
  const t = useT()
  const ca = contexts.get(a.n)
  const cb = contexts.get(b.n)
  const ops = useMemo(() => (ca && cb ? compareRequests(ca, cb) : []), [ca, cb])
  if (!ca || !cb) return <p className="muted">{t('compare.no_context', { n: ca ? b.n : a.n })}</p>
  const count = (op: string) => ops.filter((d) => d.op === op).length
  const changed = ops.filter((d) => d.op !== 'same')
  return (
    <>
      <p className="muted" data-testid="compare-counts">
        {t('compare.counts', { added: count('added'), removed: count('removed'), edited: count('edited'), same: count('same') })}
      </p>
      {changed.length === 0 ? <p className="muted">{t('compare.same')}</p> : <MessageDiff ops={changed} />}
    </>
  )
}

type Source = { status: 'loading' } | { status: 'error'; error: string } | { status: 'ready'; alignment: Alignment }

/**
 * ForkView sets a fork beside its source: the source's iterations before the
 * fork point, then from it on the fork's #k beside the source's #(N+k−1),
 * the ones whose decisions differ marked. A click on a fork's row selects
 * its card.
 */
export function ForkView() {
  const t = useT()
  const store = useAppStore()
  const lang = useAppState((s) => s.lang)
  const view = useRunState((s) => s.view)
  const from = view.forkedFrom
  const sourceId = from?.run_id ?? ''
  const title = useRunsState((s) => s.index.byId[sourceId]?.title || s.index.byId[sourceId]?.task || sourceId)
  const [events, setEvents] = useState<{ id: string; value: Awaited<ReturnType<typeof store.runEvents>> } | { id: string; error: string } | null>(null)
  useEffect(() => {
    if (!sourceId) return
    let live = true
    store.runEvents(sourceId).then(
      (value) => live && setEvents({ id: sourceId, value }),
      (err) => live && setEvents({ id: sourceId, error: toApiError(err).messageIn(lang) }),
    )
    return () => {
      live = false
    }
  }, [store, sourceId, lang])
  const source: Source = useMemo(() => {
    if (!events || events.id !== sourceId) return { status: 'loading' }
    if ('error' in events) return { status: 'error', error: events.error }
    return { status: 'ready', alignment: alignFork(foldRun(events.value, sourceId), view) }
  }, [events, sourceId, view])
  if (!from) return null
  if (source.status === 'loading') return <p className="muted">{t('fork.loading')}</p>
  if (source.status === 'error') return <p className="notice notice-error">{t('fork.error', { error: source.error })}</p>
  const al = source.alignment
  return (
    <div data-testid="fork-view" data-at={al.at}>
      <p data-testid="fork-summary">
        {t('fork.summary', { n: al.at, source: title, differ: al.differ, compared: al.compared })}{' '}
        <a href={runHref(sourceId)} data-testid="fork-source-link">
          {sourceId}
        </a>
      </p>
      <table className="fork-align" data-testid="fork-align">
        <thead>
          <tr>
            <th>{t('fork.source')}</th>
            <th>{t('fork.this')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {al.rows.map((r, i) => (
            <tr
              key={i}
              className={`${r.kind}${r.kind === 'point' ? ' fork-point' : ''}${r.differs ? ' differs' : ''}`}
              data-testid="fork-row"
              data-kind={r.kind}
              data-source={r.source?.n ?? ''}
              data-fork={r.fork?.n ?? ''}
              data-differs={r.differs ? 'true' : 'false'}
              onClick={() => r.fork && store.run.select(r.fork.n)}
            >
              <td>{r.source ? <Brief it={r.source} /> : '–'}</td>
              <td>{r.kind === 'shared' ? <span className="muted">{t('fork.shared')}</span> : r.fork ? <Brief it={r.fork} /> : '–'}</td>
              <td>
                {r.kind === 'point' && <span className="tag">{t('fork.point')}</span>} {r.differs && <span className="tag warn">{t('fork.differs')}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Brief is one iteration in a line: its number, the calls it made, or its answer. */
export function Brief({ it }: { it: IterationView }) {
  const what = it.calls.length > 0 ? it.calls.map((c) => `${c.name} ${briefArgs(splitCallMeta(c.arguments).rest)}`).join(', ') : it.answer ? `= ${it.answer}` : it.thought
  return (
    <span title={decisionText(it)}>
      <b>#{it.n}</b> {what.length > 80 ? what.slice(0, 80) + '…' : what}
    </span>
  )
}

/** briefArgs is a call's arguments in few characters: the values, without the JSON around them. */
function briefArgs(args: string): string {
  try {
    const v: unknown = JSON.parse(args)
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.values(v).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ')
  } catch {
    // Not JSON: as it is.
  }
  return args
}
