import { memo, useMemo, useRef, useState } from 'react'
import type { ChatMessage, HermesEvent } from '../api/types'
import { budgetSplit } from '../lib/budget'
import { createContextIndex, diffContexts, messagesOf, previousContext, type RequestContext } from '../lib/context'
import { summarizeEvent } from '../lib/events'
import { formatCount, formatPercent, formatTokens } from '../lib/format'
import type { IterationView } from '../lib/timeline'
import { useAppState, useT } from './context'

type Tab = 'messages' | 'changes' | 'budget' | 'events'
const tabs: Tab[] = ['messages', 'changes', 'budget', 'events']

/** Inspector shows what one iteration sent to the model, what changed since the one before, its budget and its raw events. */
export function Inspector({ it, events }: { it: IterationView | undefined; events: HermesEvent[] }) {
  const t = useT()
  const [tab, setTab] = useState<Tab>('messages')
  // The index reads each event once, however long the run grows.
  const index = useRef(createContextIndex())
  const contexts = index.current.update(events)
  if (!it) return <aside className="inspector empty-inspector muted">{t('inspector.none')}</aside>
  const ctx = contexts.get(it.n)
  const prev = previousContext(contexts, it.n)

  return (
    <aside className="inspector" data-testid="inspector" data-iteration={it.n}>
      <div className="inspector-head">
        <h2>{it.n === 0 ? t('card.start') : t('inspector.heading', { n: it.n })}</h2>
        <div className="tabs" role="tablist">
          {tabs.map((x) => (
            <button key={x} type="button" role="tab" aria-selected={tab === x} className={tab === x ? 'active' : ''} onClick={() => setTab(x)} data-testid={`tab-${x}`}>
              {t(`inspector.tab.${x}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="inspector-body">
        {tab === 'messages' && (ctx ? <Messages ctx={ctx} /> : <p className="muted">{t('inspector.no_context')}</p>)}
        {tab === 'changes' && <Changes prev={prev} next={ctx} />}
        {tab === 'budget' && <Budget it={it} />}
        {tab === 'events' && <RawEvents it={it} events={events} />}
      </div>
    </aside>
  )
}

// Memoised on the request, which keeps its identity while the run goes on.
const Messages = memo(function Messages({ ctx }: { ctx: RequestContext }) {
  const t = useT()
  const messages = useMemo(() => messagesOf(ctx), [ctx])
  return (
    <ol className="messages" data-testid="messages">
      <li className="muted">{t('inspector.message_count', { n: messages.length })}</li>
      {messages.map((m, i) => (
        <MessageView key={i} m={m} />
      ))}
    </ol>
  )
})

function MessageView({ m, op }: { m: ChatMessage; op?: string }) {
  return (
    <li className={`message role-${m.role}${op ? ` diff-${op}` : ''}`} data-testid="message" data-role={m.role}>
      <div className="message-role">
        {op === 'added' ? '+ ' : op === 'removed' ? '− ' : ''}
        {m.role}
        {m.name ? ` · ${m.name}` : ''}
        {m.tool_call_id ? ` · ${m.tool_call_id}` : ''}
      </div>
      {m.content && <pre className="message-content">{m.content}</pre>}
      {m.tool_calls?.map((c) => (
        <pre key={c.id} className="message-call">
          → {c.name}({c.arguments}) <span className="muted">{c.id}</span>
        </pre>
      ))}
    </li>
  )
}

const Changes = memo(function Changes({ prev, next }: { prev: RequestContext | undefined; next: RequestContext | undefined }) {
  const t = useT()
  const diff = useMemo(() => (prev && next ? diffContexts(messagesOf(prev), messagesOf(next)) : []), [prev, next])
  if (!next) return <p className="muted">{t('inspector.no_context')}</p>
  if (!prev) return <p className="muted">{t('inspector.first_context')}</p>
  const prevN = prev.iteration
  const changed = diff.filter((d) => d.op !== 'same')
  const same = diff.length - changed.length
  return (
    <div data-testid="changes">
      <p className="muted">{t('inspector.changes', { n: prevN, added: diff.filter((d) => d.op === 'added').length, removed: diff.filter((d) => d.op === 'removed').length, same })}</p>
      <ol className="messages">
        {changed.map((d, i) => (
          <MessageView key={i} m={d.value} op={d.op} />
        ))}
      </ol>
    </div>
  )
})

function Budget({ it }: { it: IterationView }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const c = it.context
  if (!c) return <p className="muted">{t('inspector.no_context')}</p>
  const split = budgetSplit(c.layers, c.window, c.tokens)
  return (
    <div className="budget" data-testid="budget">
      <div className="budget-bar">
        {split.layers.map((l) => (
          <span key={l.layer} className={`layer-${l.layer}`} style={{ width: `${Math.min(100, l.share * 100)}%` }} title={t(`layer.${l.layer}`)} />
        ))}
      </div>
      <table className="budget-table">
        <tbody>
          {split.layers.map((l) => (
            <tr key={l.layer} data-testid="budget-layer" data-layer={l.layer}>
              <td>
                <span className={`swatch layer-${l.layer}`} /> {t(`layer.${l.layer}`)}
              </td>
              <td className="num">{formatCount(l.tokens, lang)}</td>
              <td className="num muted">{formatPercent(l.share, lang)}</td>
            </tr>
          ))}
          <tr className="total">
            <td>{t('inspector.used')}</td>
            <td className="num">{formatCount(split.used, lang)}</td>
            <td className="num">{formatPercent(split.fill, lang)}</td>
          </tr>
          <tr>
            <td>{t('inspector.free')}</td>
            <td className="num">{formatCount(split.free, lang)}</td>
            <td />
          </tr>
          <tr>
            <td>{t('inspector.window')}</td>
            <td className="num">{formatTokens(split.window, lang)}</td>
            <td />
          </tr>
        </tbody>
      </table>
      {c.compressed && <p className="tag warn">{t('card.compressed')}</p>}
    </div>
  )
}

function RawEvents({ it, events }: { it: IterationView; events: HermesEvent[] }) {
  const lang = useAppState((s) => s.lang)
  const [open, setOpen] = useState<number | null>(null)
  const seqs = new Set(it.seqs)
  const mine = events.filter((e) => seqs.has(e.seq))
  return (
    <ol className="raw-events" data-testid="raw-events">
      {mine.map((e) => (
        <li key={e.seq}>
          <button type="button" className="raw-event" aria-expanded={open === e.seq} onClick={() => setOpen(open === e.seq ? null : e.seq)}>
            <span className="muted">{e.seq}</span> <span className="chip">{e.type}</span> <span className="ev-summary">{summarizeEvent(e, lang, 90)}</span>
          </button>
          {open === e.seq && <pre className="event-json">{JSON.stringify(e, null, 2)}</pre>}
        </li>
      ))}
    </ol>
  )
}
