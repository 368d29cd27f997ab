import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { budgetSplit } from '../lib/budget'
import { curlCommand } from '../lib/curl'
import { diffContexts, messagesOf, previousContext, type RequestContext } from '../lib/context'
import { pairEdits } from '../lib/diff'
import { shownNote } from '../lib/notes'
import { conversationIndex } from '../lib/pins'
import { summarizeEvent } from '../lib/events'
import { formatCount, formatPercent, formatTokens } from '../lib/format'
import { sameMessage } from '../lib/compare'
import type { IterationView } from '../lib/timeline'
import { CompareView, ForkView } from './CompareView'
import { CompressionPreview } from './CompressionPreview'
import { CopyButton } from './CopyButton'
import { useAppState, useRunState, useT } from './appContext'
import { MessageDiff, MessageView, type Pins } from './MessageView'
import { NoteView } from './NoteView'

/** Endpoint is where the run's requests went, for "copy as cURL": the model, the masked base URL and the tools. */
export interface Endpoint {
  model: string
  baseUrl: string
  tools: readonly string[]
}

type Tab = 'messages' | 'changes' | 'compare' | 'fork' | 'budget' | 'events' | 'note'

/**
 * Inspector shows what one iteration sent to the model (with a pin on each
 * message of the conversation), what changed since the one before, its
 * budget with the preview of the next compression, and its raw events.
 */
// Memoised: a live run's fold that leaves the shown iteration, its requests
// and the pins as they were does not draw the inspector again.
export const Inspector = memo(function Inspector({ it, contexts, pins, endpoint }: { it: IterationView | undefined; contexts: Map<number, RequestContext>; pins: Pins; endpoint?: Endpoint }) {
  const t = useT()
  const [tab, setTab] = useState<Tab>('messages')
  const forked = useRunState((s) => s.view.forkedFrom !== null)
  // A note a call read, asked for from its card (lib/notes.ts), is shown on a tab of its own.
  const runId = useRunState((s) => s.runId)
  const asked = useSyncExternalStore(shownNote.subscribe, shownNote.get)
  const hasNote = asked.seq > 0 && asked.runId === runId
  const [noteSeen, setNoteSeen] = useState(0)
  if (hasNote && asked.seq !== noteSeen) {
    setNoteSeen(asked.seq)
    setTab('note')
  }
  const tabs: Tab[] = ['messages', 'changes', 'compare', ...(forked ? (['fork'] as const) : []), 'budget', 'events', ...(hasNote ? (['note'] as const) : [])]
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
              {x === 'compare' ? t('compare.tab') : x === 'fork' ? t('fork.tab') : t(`inspector.tab.${x}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="inspector-body">
        {tab === 'messages' && (ctx ? <Messages ctx={ctx} pins={pins} endpoint={endpoint} /> : <p className="muted">{t('inspector.no_context')}</p>)}
        {tab === 'changes' && <Changes prev={prev} next={ctx} />}
        {tab === 'compare' && <CompareView key={it.n} n={it.n} contexts={contexts} />}
        {tab === 'fork' && forked && <ForkView />}
        {tab === 'budget' && (
          <>
            <Budget it={it} />
            <CompressionPreview pins={pins} />
          </>
        )}
        {tab === 'events' && <RawEvents it={it} />}
        {tab === 'note' && hasNote && <NoteView key={asked.seq} asked={asked} />}
      </div>
    </aside>
  )
})

const roles = ['system', 'user', 'assistant', 'tool'] as const

/** messageSlice is how many messages a list draws at first, and how many more each time its end comes near. */
export const messageSlice = 40

/**
 * shownMessages is how many of total messages a list draws once asked for
 * `asked` (a multiple of messageSlice): the messages below grow the list as
 * it is scrolled to them. A live run's request gains two messages an
 * iteration, which a list drawn whole made into elements, styled and laid
 * out on every page following the run (2,100 of a page's 2,500 elements
 * after 150 iterations), though no one had scrolled to them.
 */
export function shownMessages(total: number, asked: number): number {
  return Math.min(total, Math.max(messageSlice, asked))
}

// Memoised on the request, which keeps its identity while the run goes on.
// The messages are in one scroll, each as tall as it is; a role's messages
// fold and unfold together, and each one on its own.
const Messages = memo(function Messages({ ctx, pins, endpoint }: { ctx: RequestContext; pins: Pins; endpoint?: Endpoint }) {
  const t = useT()
  const messages = useMemo(() => messagesOf(ctx), [ctx])
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(roles))
  // Each change of the roles opened redraws the messages with it as their start.
  const [version, setVersion] = useState(0)
  const setRoles = (next: ReadonlySet<string>) => {
    setOpen(next)
    setVersion(version + 1)
  }
  const curl = () => curlCommand({ model: endpoint?.model ?? '', baseUrl: endpoint?.baseUrl ?? '', messages, tools: ctx.data.tool_names ?? endpoint?.tools ?? [] })
  // The messages are drawn a slice at a time: more once the list's end is
  // within a screen of the inspector's view.
  const [asked, setAsked] = useState(messageSlice)
  const shown = shownMessages(messages.length, asked)
  const hasMore = shown < messages.length
  const more = useRef<HTMLLIElement>(null)
  useEffect(() => {
    const el = more.current
    if (!el) return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setAsked((a) => a + messageSlice)
    }, { root: el.closest('.inspector-body'), rootMargin: '100% 0px' })
    // Observed anew after each slice: the end still in reach asks for the next.
    io.observe(el)
    return () => io.disconnect()
  }, [shown, hasMore])
  return (
    <ol className="messages" data-testid="messages">
      <li className="muted messages-head">
        {t('inspector.message_count', { n: messages.length })} <CopyButton text={curl} label={t('copy.curl')} title={t('copy.curl_hint')} testId="copy-curl" />
      </li>
      <li className="role-toggles" data-testid="role-toggles">
        <span className="muted">{t('inspector.roles')}</span>
        {roles.map((r) => (
          <button
            key={r}
            type="button"
            className={`chip${open.has(r) ? ' active' : ''}`}
            aria-pressed={open.has(r)}
            data-testid="role-toggle"
            data-role={r}
            onClick={() => {
              const next = new Set(open)
              if (!next.delete(r)) next.add(r)
              setRoles(next)
            }}
          >
            {r}
          </button>
        ))}
        <button type="button" className="link" onClick={() => setRoles(new Set(roles))}>
          {t('inspector.role_all')}
        </button>
        <button type="button" className="link" onClick={() => setRoles(new Set())}>
          {t('inspector.role_none')}
        </button>
      </li>
      {messages.slice(0, shown).map((m, i) => (
        <MessageView key={`${version}-${i}`} m={m} index={conversationIndex(ctx, i)} pins={pins} open={open.has(m.role ?? '') || !(roles as readonly string[]).includes(m.role ?? '')} />
      ))}
      {shown < messages.length && (
        <li ref={more} className="muted messages-more" data-testid="messages-more">
          {t('inspector.more_messages', { n: messages.length - shown })}
        </li>
      )}
    </ol>
  )
})

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
      <MessageDiff ops={pairEdits(changed, sameMessage)} />
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
      <p className="muted budget-source" data-testid="budget-source">
        {t('inspector.estimate_note')}
        {c.ratio > 0 && <> {t('inspector.ratio_note', { ratio: c.ratio.toFixed(2) })}</>}
        {it.tokensIn > 0 && <> {t('inspector.provider_prompt', { n: formatCount(it.tokensIn, lang) })}</>}
      </p>
      {c.schemasSaved > 0 && (
        <p className="schemas-saved" data-testid="schemas-saved">
          {t('budget.schemas', { sent: formatCount(c.layers.tool_schemas ?? 0, lang), saved: formatCount(c.schemasSaved, lang) })}
        </p>
      )}
      {c.compressed && <p className="tag warn">{t('card.compressed')}</p>}
    </div>
  )
}

function RawEvents({ it }: { it: IterationView }) {
  const lang = useAppState((s) => s.lang)
  const events = useRunState((s) => s.events)
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
