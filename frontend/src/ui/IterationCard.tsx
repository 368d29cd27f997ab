import { memo, useEffect, useRef, useState } from 'react'
import { formatCost } from '../lib/cost'
import { shownEntities } from '../lib/entities'
import { editedWhat, statusLabel } from '../lib/events'
import { formatDateTime, formatDuration, formatPercent, formatTokens, oneLine, parseTime } from '../lib/format'
import { memorySource, memoryUse, whyRecalled } from '../lib/memory'
import { runHref } from '../lib/route'
import { runSandbox } from '../lib/sandbox'
import { hitIn, type CardHit } from '../lib/search'
import type { RunSummary, SandboxData, SummaryUpdatedData } from '../api/types'
import type { RunIndex } from '../lib/runs'
import type { CallView, IterationView, Mark } from '../lib/timeline'
import type { Translate } from '../i18n/i18n'
import type { Lang } from '../i18n/i18n'
import { CallBlock, approvalText } from './CallBlock'
import { CopyButton } from './CopyButton'
import { Highlight } from './Highlight'
import { Markdown } from './Markdown'
import { TextDiffView } from './DiffView'
import { Icon } from './Icon'
import { CompletionLine, PlanDiffView } from './PlanPanel'
import type { Pins } from './MessageView'
import { useRunState, useRunsState } from './appContext'
import { sourceNumber } from '../lib/compare'

export interface CardProps {
  it: IterationView
  lang: Lang
  t: Translate
  selected: boolean
  /** The run is live and this is its latest card: streamed text shows a cursor. */
  streaming: boolean
  onSelect: (n: number) => void
  onFork: (n: number) => void
  onArtifact: (call: CallView) => void
  pins: Pins
  resultIndexes: Map<string, number>
  /** The search hit to show and mark in this card; null on every other card, so they stay memoised. */
  hit?: CardHit | null
}

/**
 * sameCard says whether a card would draw the same: the index of the tool
 * results grows with each request a live run builds (once an iteration),
 * and a card reads only its own calls' entries from it, so a new map that
 * leaves those as they were does not draw the cards on screen again.
 */
export function sameCard(a: CardProps, b: CardProps): boolean {
  for (const k of Object.keys(a) as (keyof CardProps)[]) {
    if (k !== 'resultIndexes' && a[k] !== b[k]) return false
  }
  if (Object.keys(a).length !== Object.keys(b).length) return false
  if (a.resultIndexes === b.resultIndexes) return true
  return a.it.calls.every((c) => a.resultIndexes.get(c.id) === b.resultIndexes.get(c.id))
}

// Cards are memoised on their iteration's view: a live event re-renders the
// one card it changed, not the thousand before it.
export const IterationCard = memo(function IterationCard({ it, lang, t, selected, streaming, onSelect, onFork, onArtifact, pins, resultIndexes, hit = null }: CardProps) {
  const calls = new Map(it.calls.map((c) => [c.id, c]))
  const start = parseTime(it.started)
  const end = parseTime(it.ended)
  const ctx = it.context
  const fill = ctx && ctx.window > 0 ? ctx.tokens / ctx.window : 0

  return (
    <article className={`card${selected ? ' selected' : ''}${it.n === 0 ? ' card-start' : ''}`} data-testid="iteration-card" data-iteration={it.n} data-hit={hit ? hit.field : undefined}>
      <header className="card-head" onClick={() => onSelect(it.n)}>
        <span className="iter-n">{it.n === 0 ? t('card.start') : `#${it.n}`}</span>
        {it.n > 0 && <SourceNumber n={it.n} t={t} />}
        {/* The latest card of a live run is still going: its time runs on. */}
        {it.n > 0 && start && streaming && <Elapsed since={start.getTime()} t={t} />}
        {it.n > 0 && start && end && !streaming && (
          <span className="muted" title={t('card.duration')} data-testid="card-duration">
            {formatDuration(end.getTime() - start.getTime())}
          </span>
        )}
        {it.n > 0 && (it.tokensIn > 0 || it.tokensOut > 0) && (
          <span className="muted tokens" title={t('card.tokens_hint')}>
            ↑{formatTokens(it.tokensIn, lang)} ↓{formatTokens(it.tokensOut, lang)}
          </span>
        )}
        {it.n > 0 && it.cost !== undefined && (
          <span className="muted" title={t('runs.col.cost')} data-testid="card-cost">
            {formatCost(it)}
          </span>
        )}
        {ctx && (
          <span className="gauge" title={t('card.gauge', { tokens: formatTokens(ctx.tokens, lang), window: formatTokens(ctx.window, lang) })} data-testid="gauge">
            <span className="gauge-bar">
              <span className={`gauge-fill${fill > 0.8 ? ' hot' : ''}`} style={{ width: `${Math.min(100, fill * 100)}%` }} />
            </span>
            <span className="gauge-text">{formatPercent(fill, lang)}</span>
          </span>
        )}
        {ctx?.compressed && <span className="tag warn">{t('card.compressed')}</span>}
        {it.guards > 0 && <span className="tag warn">⚠ {it.guards}</span>}
        {it.itersLeft > 0 && (
          <span className="tag warn" data-testid="limit-near-tag" title={t('card.limit_near_hint')}>
            ⏳ {t('card.limit_near_tag', { left: it.itersLeft })}
          </span>
        )}
        {it.failedCalls > 0 && <span className="tag bad">✗ {it.failedCalls}</span>}
        {it.decision?.stage && it.decision.stage !== 'deciding' && <span className={`tag stage stage-${it.decision.stage}`}>{stageName(t, it.decision.stage)}</span>}
        {it.decision?.drift && (
          <span className="tag bad" data-testid="drift-tag">
            {t('decision.drift_tag')}
          </span>
        )}
        <span className="spacer" />
        {it.n > 0 && (
          <button
            type="button"
            className="icon fork-button"
            title={t('card.fork')}
            aria-label={t('card.fork')}
            data-testid="card-fork"
            onClick={(e) => {
              e.stopPropagation()
              onFork(it.n)
            }}
          >
            <Icon name="fork" />
          </button>
        )}
      </header>
      <div className="card-body">
        {it.items.map((item) => {
          if (item.kind === 'model') return <ModelBlock key="model" it={it} t={t} lang={lang} streaming={streaming} hit={hit && !hit.callId && !hit.seq ? hit : null} />
          if (item.kind === 'call') {
            const c = calls.get(item.id)
            return c ? <CallBlock key={`call-${item.id}`} call={c} onArtifact={onArtifact} pins={pins} resultIndex={resultIndexes.get(c.id)} hit={hit?.callId === c.id ? hit : null} /> : null
          }
          const markHit = hit && hit.seq === item.seq ? hit : null
          if (!markHit && !markShown(item.mark, calls)) return null
          // Guards and the task mark their match; other marks are marked whole.
          if (markHit && item.mark.kind !== 'guard' && item.mark.kind !== 'started' && item.mark.kind !== 'summary') {
            return (
              <div key={item.seq} className="hit-whole" data-hit-active="">
                <MarkLine mark={item.mark} t={t} lang={lang} />
              </div>
            )
          }
          return <MarkLine key={item.seq} mark={item.mark} t={t} lang={lang} hit={markHit} />
        })}
        {it.n > 0 && <ForksHere n={it.n} t={t} />}
      </div>
    </article>
  )
}, sameCard)

/** markShown says whether a mark has a line of its own: an approval of a call in the card is said by the call (CallBlock), not twice. */
export function markShown(mark: Mark, calls: ReadonlyMap<string, unknown>): boolean {
  return !(mark.kind === 'approval' && calls.has(mark.callId))
}

/** Elapsed is a running iteration's time so far, ticking each second. */
function Elapsed({ since, t }: { since: number; t: Translate }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [])
  const ms = Math.max(0, now - since)
  return (
    <span className="muted elapsed" title={t('card.running_for', { time: formatDuration(ms) })} data-testid="card-elapsed">
      <span className="elapsed-dot" aria-hidden="true" /> {formatDuration(Math.floor(ms / 1000) * 1000)}
    </span>
  )
}

/** SourceNumber is, on a fork's card, the number the iteration has in the source run: a fork counts from #1 at its fork point. */
function SourceNumber({ n, t }: { n: number; t: Translate }) {
  const at = useRunState((s) => (s.replay?.view ?? s.view).forkedFrom?.iteration ?? 0)
  if (at <= 0) return null
  const sn = sourceNumber(at, n)
  return (
    <span className="meta-tag" title={t('fork.source_n_hint', { n: sn })} data-testid="card-source-n">
      {t('fork.source_n', { n: sn })}
    </span>
  )
}

const noForks: readonly RunSummary[] = []
const forksByIndex = new WeakMap<RunIndex, Map<string, RunSummary[]>>()

/**
 * forksAt is the runs forked from iteration n of runId, newest first. The
 * forks of every iteration are sorted out once per runs list: a live run's
 * summary changes the list at each checkpoint, and each card on screen asks
 * again; a card with no fork gets the same empty list, and is not drawn again.
 */
export function forksAt(index: RunIndex, runId: string, n: number): readonly RunSummary[] {
  let byPoint = forksByIndex.get(index)
  if (!byPoint) {
    byPoint = new Map()
    for (const id of index.ids) {
      const from = index.byId[id].forked_from
      if (!from?.run_id) continue
      const key = `${from.iteration ?? 0}:${from.run_id}`
      const list = byPoint.get(key)
      if (list) list.push(index.byId[id])
      else byPoint.set(key, [index.byId[id]])
    }
    forksByIndex.set(index, byPoint)
  }
  return byPoint.get(`${n}:${runId}`) ?? noForks
}

/** ForksHere links the runs forked from this iteration. */
function ForksHere({ n, t }: { n: number; t: Translate }) {
  const runId = useRunState((s) => s.runId)
  const forks = useRunsState((s) => forksAt(s.index, runId, n))
  if (forks.length === 0) return null
  return (
    <div className="fork-links" data-testid="card-forks">
      <Icon name="fork" /> {t('fork.forks_here')}
      {forks.map((r) => (
        <a key={r.run_id} href={runHref(r.run_id)} data-testid="card-fork-link" title={r.task}>
          {oneLine(r.title || r.task, 40) || r.run_id}
        </a>
      ))}
    </div>
  )
}

/** StartSandbox says on the start card how the run's commands run, the whole reason when they are not confined. */
function StartSandbox({ sandbox, t }: { sandbox: SandboxData; t: Translate }) {
  const s = runSandbox(t, sandbox)
  if (!s) return null
  return (
    <div className={s.enforced ? 'muted' : 'start-unsandboxed'} data-testid="start-sandbox" title={s.detail.join('\n')}>
      {t('card.sandbox', { text: s.text })}
      {s.enforced && sandbox.how ? ` (${sandbox.how})` : ''}
    </div>
  )
}

/** ForkedFrom says which run and iteration a fork started from, by the source's title. */
function ForkedFrom({ runId, n, t }: { runId: string; n: number; t: Translate }) {
  const title = useRunsState((s) => s.index.byId[runId]?.title || s.index.byId[runId]?.task || '')
  return (
    <div data-testid="forked-from">
      <Icon name="fork" /> {t('fork.at', { n })}{' '}
      <a href={runHref(runId)} data-testid="forked-from-link" title={runId}>
        {oneLine(title, 60) || runId}
      </a>
    </div>
  )
}

function ModelBlock({ it, t, lang, streaming, hit }: { it: IterationView; t: Translate; lang: Lang; streaming: boolean; hit: CardHit | null }) {
  const reasoningHit = hitIn(hit, 'reasoning') ? hit : null
  if (!it.decided) {
    return (
      <>
        <ReasoningBlock it={it} t={t} lang={lang} hit={reasoningHit} />
        <div className="model streamed" data-testid="streamed">
          <Highlight text={it.streamed} hit={hitIn(hit, 'thought') ? hit : null} />
          {streaming && <span className="cursor" aria-hidden="true" />}
        </div>
      </>
    )
  }
  return (
    <>
      <ReasoningBlock it={it} t={t} lang={lang} hit={reasoningHit} />
      {it.thought && (
        <div className="model thought" data-testid="thought">
          <Highlight text={it.thought} hit={hitIn(hit, 'thought') ? hit : null} />
        </div>
      )}
      {it.answer && (
        <div className="model answer-block" data-testid="final-answer">
          <span className="mark-label">{t('card.final_answer')}</span> <CopyButton text={it.answer} title={t('copy.answer')} testId="copy-card-answer" />
          {/* Markdown, unless a search hit is marked in it. */}
          {hitIn(hit, 'answer') ? <Highlight text={it.answer} hit={hit} /> : <Markdown text={it.answer} />}
        </div>
      )}
      {!it.thought && !it.answer && it.calls.length === 0 && <div className="model muted">{t('card.empty_answer')}</div>}
      {it.decision && (it.decision.step > 0 || it.decision.servesGoal || it.decision.drift) && <DecisionLine it={it} t={t} />}
    </>
  )
}

/** ReasoningBlock is the model's thinking before its text, collapsed: a
 * summary line with its size, the whole when opened. A search hit in it
 * opens it. */
function ReasoningBlock({ it, t, lang, hit }: { it: IterationView; t: Translate; lang: Lang; hit: CardHit | null }) {
  const ref = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    if (hit && ref.current) ref.current.open = true
  }, [hit])
  if (!it.reasoning) return null
  const size = it.reasoningTokens > 0 ? t('card.reasoning_tokens', { tokens: formatTokens(it.reasoningTokens, lang) }) : t('card.reasoning_chars', { n: it.reasoning.length })
  return (
    <details className="model reasoning" data-testid="reasoning" ref={ref}>
      <summary>
        <span className="mark-label">{t('card.reasoning')}</span> <span className="muted">{size}</span>
      </summary>
      <div className="reasoning-text">
        {hit ? <Highlight text={it.reasoning} hit={hit} /> : <Markdown text={it.reasoning} lines={12} />}
      </div>
    </details>
  )
}

/** DecisionLine is what a decision under a plan says of itself: its step, whether it finishes it, how it serves the goal, and any drift. */
function DecisionLine({ it, t }: { it: IterationView; t: Translate }) {
  const d = it.decision
  if (!d) return null
  return (
    <div className={`decision${d.drift ? ' drift' : ''}`} data-testid="decision" data-step={d.step} data-drift={d.drift ? 'true' : undefined}>
      {d.step > 0 ? (
        <span className="tag">{t(d.stepStatus === 'finished' ? 'decision.step_finished' : 'decision.step_continue', { n: d.step })}</span>
      ) : (
        <span className="tag bad">{t('decision.no_step')}</span>
      )}{' '}
      {d.servesGoal && <span>{t('decision.serves_goal', { text: d.servesGoal })}</span>}
      {d.drift && (
        <div className="drift-reason" data-testid="drift">
          ⚠ {t('decision.drift', { reason: d.drift })}
        </div>
      )}
    </div>
  )
}

const stageKeys = ['intake', 'planning', 'deciding', 'acting', 'evaluating', 'memory', 'completion'] as const

/** stageName names a stage in plain words; an unknown one keeps its name. */
export function stageName(t: Translate, stage: string): string {
  return (stageKeys as readonly string[]).includes(stage) ? t(`stage.${stage as (typeof stageKeys)[number]}`) : stage
}

const editedLabel = { task: 'card.task_edited', instructions: 'card.instructions_edited', both: 'card.task_instructions_edited' } as const

function MarkLine({ mark: m, t, lang, hit = null }: { mark: Mark; t: Translate; lang: Lang; hit?: CardHit | null }) {
  switch (m.kind) {
    case 'route':
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">{t(m.data.route === 'direct' ? 'plan.route_direct' : 'plan.route_loop')}</span> <span className="muted">{m.data.reason}</span>
        </div>
      )
    case 'plan':
      return (
        <div className="mark mark-state" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">☰ {t('card.plan_created', { n: m.data.steps?.length ?? 0 })}</span>
          {(m.data.attempts ?? 1) > 1 && <span className="muted"> · {t('card.plan_attempts', { n: m.data.attempts ?? 1 })}</span>}
        </div>
      )
    case 'replan':
      return (
        <div className="mark mark-guard" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">↻ {t('card.plan_revised')}</span> {m.data.reason}
          {m.data.diff && <PlanDiffView diff={m.data.diff} />}
        </div>
      )
    case 'evaluated':
      return (
        <div className={`mark ${m.data.passed ? 'mark-ok' : 'mark-guard'}`} data-testid="mark" data-kind={m.kind} data-passed={m.data.passed ? 'true' : 'false'}>
          <span className="mark-label">
            {m.data.passed ? '✓' : '✗'} {t(m.data.passed ? 'card.step_passed' : 'card.step_failed', { n: m.data.step ?? 0 })}
          </span>{' '}
          {m.data.reason}
          {m.data.unchecked && <span className="muted"> · {t('card.step_unchecked')}</span>}
          {m.data.contradicts_plan && <span className="tag warn">{t('card.step_contradicts')}</span>}
        </div>
      )
    case 'question':
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">? {t('question.heading')}</span> {m.data.question}
        </div>
      )
    case 'answered':
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">➜ {t(`question.by.${m.data.by === 'no_one' ? 'no_one' : m.data.by === 'stop' ? 'stop' : 'user'}`)}</span> {m.data.answer}
        </div>
      )
    case 'completion':
      return <CompletionLine c={m.data} lang={lang} />
    case 'started':
      return (
        <div className="mark mark-started" data-testid="mark" data-kind={m.kind}>
          <div>
            <span className="mark-label">{t('card.started')}</span> <Highlight text={m.data.task ?? ''} hit={hitIn(hit, 'task', '', m.seq) ? hit : null} />
          </div>
          {m.data.instructions && (
            <div className="muted">
              {t('card.instructions')}: <Highlight text={m.data.instructions} hit={hitIn(hit, 'instructions', '', m.seq) ? hit : null} />
            </div>
          )}
          <div className="muted">
            {m.data.model} · {t('card.tools')}: {(m.data.tools ?? []).join(', ') || '–'} · {t('card.max_iterations', { n: m.data.max_iterations ?? 0 })}
          </div>
          {m.data.sandbox && <StartSandbox sandbox={m.data.sandbox} t={t} />}
          {memoryUse(m.data.memory, lang) && (
            <div className="muted" data-testid="start-memory" data-mode={m.data.memory?.mode}>
              {t('card.memory', { text: memoryUse(m.data.memory, lang) })}
            </div>
          )}
          {m.data.forked_from && <ForkedFrom runId={m.data.forked_from.run_id ?? ''} n={m.data.forked_from.iteration ?? 0} t={t} />}
        </div>
      )
    case 'guard':
      return (
        <div className={`mark mark-guard${m.data.action === 'stop' ? ' stop' : ''}`} data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">⚠ {t('card.guard', { guard: guardName(t, m.data.guard ?? '') })}</span>{' '}
          {/* The guard's text is its message, then its details: a hit past the message marks the details. */}
          <Highlight text={m.data.message ?? ''} hit={hit && hit.end <= (m.data.message ?? '').length ? hit : null} />
          {m.data.details && m.data.details.length > 0 && (
            <ul className="details">
              {m.data.details.map((d, i) => (
                <li key={i} data-hit-active={hit && i === 0 && hit.end > (m.data.message ?? '').length ? '' : undefined}>
                  {d}
                </li>
              ))}
            </ul>
          )}
        </div>
      )
    case 'limit_near':
      return (
        <div className="mark mark-guard" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">⏳ {t('card.limit_near', { left: m.data.left ?? 0, max: m.data.max ?? 0 })}</span>
        </div>
      )
    case 'injected':
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">➜ {t('card.injected')}</span> {m.text}
        </div>
      )
    case 'task_edited': {
      const d = m.data
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">✎ {t(editedLabel[editedWhat(d)])}</span>
          {d.old_task !== d.new_task && <TextDiffView a={d.old_task ?? ''} b={d.new_task ?? ''} testId="task-diff" />}
          {(d.old_instructions ?? '') !== (d.new_instructions ?? '') && (
            <>
              <span className="muted">{t('card.instructions')}</span>
              <TextDiffView a={d.old_instructions ?? ''} b={d.new_instructions ?? ''} />
            </>
          )}
        </div>
      )
    }
    case 'call_edited':
      return (
        <div className="mark mark-control" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">✎ {t('card.call_edited', { name: m.data.name ?? '?' })}</span>
        </div>
      )
    case 'paused':
      return (
        <div className="mark mark-pause" data-testid="mark" data-kind={m.kind}>
          <Icon name="pause" /> {m.data.at === 'decided' ? t('card.paused_decided') : t('card.paused')}
        </div>
      )
    case 'resumed':
      return (
        <div className="mark mark-pause" data-testid="mark" data-kind={m.kind}>
          <Icon name="play" /> {m.data.from_checkpoint ? t('card.resumed_checkpoint', { n: m.data.iteration ?? 0 }) : t('card.resumed')}
        </div>
      )
    case 'retried':
      return (
        <div className="mark mark-retry" data-testid="mark" data-kind={m.kind}>
          ↻ {t('card.retried', { attempt: m.data.attempt ?? 0, wait: formatDuration(m.data.wait_ms ?? 0) })} <span className="muted">{m.data.error}</span>
        </div>
      )
    case 'approval':
      return (
        <div className={`mark ${m.data.decision === 'deny' ? 'mark-guard' : 'mark-control'}`} data-testid="mark" data-kind={m.kind}>
          {approvalText(t, m.data.decision ?? '', m.data.by ?? '', m.data.reason ?? '', m.data.pattern ?? '')}
        </div>
      )
    case 'summary':
      return <SummaryCard data={m.data} t={t} lang={lang} hit={hit} />
    case 'pinned':
      return (
        <div className="mark mark-control mark-pinned" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">
            <Icon name="pin" /> {m.data.fact !== undefined ? t('card.pinned_fact') : t('card.pinned_message', { n: m.data.message ?? 0, role: m.data.role ?? '' })}
          </span>{' '}
          {m.data.fact ?? <span className="muted">{m.data.preview}</span>}
        </div>
      )
    case 'memory':
      return <div className="mark mark-state muted">{t('card.memory_written')}</div>
    case 'recalled':
      return (
        <div className="mark mark-recalled" data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">{t('card.memory_recalled', { n: m.data.entries?.length ?? 0 })}</span>
          <ul className="recalled-list">
            {(m.data.entries ?? []).map((e) => (
              <li key={e.id} data-testid="recalled-memory" data-reason={e.reason}>
                <span className="recalled-text">{oneLine(e.text, 200)}</span>{' '}
                <span className="muted" data-testid="recalled-why">
                  {whyRecalled(e, lang)} · {memorySource({ kind: e.kind ?? '', source: e.source ?? '' }, lang)}
                  {e.created && ` · ${formatDateTime(e.created, lang)}`}
                  {e.run_id && (
                    <>
                      {' '}
                      <a href={runHref(e.run_id)}>{e.run_id}</a>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )
    case 'finished':
      return (
        <div className={`mark mark-finished status-${m.data.status}`} data-testid="mark" data-kind={m.kind}>
          <span className="mark-label">■ {statusLabel(m.data.status ?? '', lang)}</span> {m.data.error}
          {m.data.totals && (
            <span className="muted">
              {' '}
              · {t('card.totals', { iterations: m.data.totals.iterations ?? 0, tokens: formatTokens(m.data.totals.total_tokens ?? 0, lang), calls: m.data.totals.tool_calls ?? 0 })}
            </span>
          )}
        </div>
      )
  }
}

/** SummaryCard is a compression: which messages were folded, the tokens before and after, the values kept verbatim, and the summary itself. */
function SummaryCard({ data: d, t, lang, hit }: { data: SummaryUpdatedData; t: Translate; lang: Lang; hit: CardHit | null }) {
  const ref = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    if (hit && ref.current) ref.current.open = true
  }, [hit])
  const entities = d.entities ?? []
  const { shown, more } = shownEntities(entities, d.entities_added ?? [])
  return (
    <details className="mark mark-state summary-card" data-testid="mark" data-kind="summary" ref={ref}>
      <summary>
        <span className="mark-label">{t('card.summary_updated')}</span>{' '}
        {t('card.summary_folded', { turns: d.turns_folded ?? 0, before: formatTokens(d.tokens_before ?? 0, lang), after: formatTokens(d.tokens_after ?? 0, lang) })}
        {d.to !== undefined && d.to > (d.from ?? 0) && <span className="muted"> · {t('card.summary_range', { from: d.from ?? 0, to: d.to - 1 })}</span>}
        {entities.length > 0 && <span className="muted"> · {t('card.summary_entities', { n: entities.length })}</span>}
      </summary>
      {entities.length > 0 && (
        <div className="entities" data-testid="summary-entities">
          {shown.map((e) => (
            <code key={e.value} className={e.added ? 'added' : ''} title={e.added ? t('card.summary_entity_added') : undefined}>
              {e.value}
            </code>
          ))}
          {more > 0 && (
            <span className="muted" data-testid="summary-entities-more">
              {t('card.summary_entities_more', { n: more })}
            </span>
          )}
        </div>
      )}
      {d.summary && hit && (
        <pre className="summary-text">
          <Highlight text={d.summary} hit={hit} />
        </pre>
      )}
      {d.summary && !hit && <Markdown text={d.summary} className="summary-text summary-md" lines={0} />}
      {d.model && <div className="muted">{t('card.summary_model', { model: d.model })}</div>}
    </details>
  )
}

const guards = ['max_iterations', 'repeated_call', 'near_duplicate', 'tool_failures', 'no_progress', 'token_budget', 'unverified_answer', 'invalid_call', 'checkpoint_failed', 'approval', 'drift', 'plan'] as const

/** guardName names a guard in plain words; an unknown one keeps its name. */
export function guardName(t: Translate, guard: string): string {
  return (guards as readonly string[]).includes(guard) ? t(`guard.${guard as (typeof guards)[number]}`) : guard
}

