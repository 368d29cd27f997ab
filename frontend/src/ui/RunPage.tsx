import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { askedBy } from '../lib/askedby'
import { createContextIndex, type RequestContext } from '../lib/context'
import { budgetSeries } from '../lib/budget'
import { formatCount, formatDateTime, formatDuration, formatPercent, formatTokens, firstLine, parseTime } from '../lib/format'
import { createResultIndex } from '../lib/resultindex'
import { runHref, runsHref } from '../lib/route'
import { forksOf } from '../lib/runs'
import { nearest, type Hit } from '../lib/search'
import { shortcutFor } from '../lib/shortcuts'
import { stageTokenList } from '../lib/stagetokens'
import { modelIterations, type CallView, type IterationView, type RunView } from '../lib/timeline'
import { BudgetChart, budgetKey } from './BudgetChart'
import { useAppState, useAppStore, useRunState, useRunsState, useT } from './appContext'
import { Controls } from './Controls'
import { CopyButton } from './CopyButton'
import { ApprovalDialog, ArtifactDialog, EditDialog, ForkDialog, HelpOverlay } from './Dialogs'
import { EventList } from './EventList'
import { Inspector } from './Inspector'
import type { Pins } from './MessageView'
import { useLaggedStore } from './lag'
import { Markdown } from './Markdown'
import { Panel, PanelGroupContext, usePanelGroup } from './Panel'
import { PlanPanel } from './PlanPanel'
import { ReplayBar } from './ReplayBar'
import { RunLabelBar } from './RunLabel'
import { RunSearch } from './RunSearch'
import { RunStatusBadge } from './StatusBadge'
import { SandboxBadge } from './SandboxBadge'
import { Timeline, type Reveal } from './Timeline'
import type { RunState } from '../store/run'
import { Waterfall } from './Waterfall'
import { createCostIndex, formatCost, runCost, type Priced } from '../lib/cost'

type Dialog = { kind: 'edit' } | { kind: 'fork'; n: number } | { kind: 'artifact'; call: CallView } | { kind: 'help' } | null

export function RunPage({ runId }: { runId: string }) {
  const { run } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const status = useRunState((s) => s.status)
  const error = useRunState((s) => s.error)
  const actionError = useRunState((s) => s.actionError)
  const watching = useRunState((s) => s.watching)
  const replay = useRunState((s) => s.replay)
  const selected = useRunState((s) => s.selected)
  // The page's shell reads the run's view and events through values that a
  // fold which only changes cards leaves as they were: a live run's events
  // redraw its cards (RunTimeline), not the page around them.
  const liveStatus = useRunState((s) => s.view.status)
  const paused = useRunState((s) => s.view.paused !== null)
  const awaitingApproval = useRunState((s) => !!s.view.pendingApproval)
  const hasEvents = useRunState((s) => s.view.eventCount > 0)
  const hasModelTurns = useRunState((s) => s.view.iterations.some((it) => it.n > 0))
  const pendingApproval = useRunState((s) => s.view.pendingApproval)
  // The header names the run as it is, a replay at any point too.
  const task = useRunState((s) => s.view.task)
  const plan = useRunState((s) => shownView(s).plan)
  const model = useRunState((s) => shownView(s).model)
  const baseUrl = useRunState((s) => shownView(s).baseUrl)
  const tools = useRunState((s) => shownView(s).tools)
  const sandbox = useRunState((s) => shownView(s).sandbox)
  const pinned = useRunState((s) => s.view.pinnedMessages)
  // Of the runs list, what the page shows, each a value: a live run's summary
  // comes at each iteration, and would draw the whole page again.
  const summaryTitle = useRunsState((s) => s.index.byId[runId]?.title ?? '')
  const sample = useRunsState((s) => !!s.index.byId[runId]?.sample)
  const forksKey = useRunsState((s) => forksOf(s.index, runId))
  const forks = useMemo(() => (forksKey ? forksKey.split(' ') : []), [forksKey])
  const [dialog, setDialog] = useState<Dialog>(null)
  const [approvalLater, setApprovalLater] = useState('')
  const [tab, setTab] = useState<'timeline' | 'events' | 'waterfall'>('timeline')
  const injectRef = useRef<HTMLInputElement>(null)
  const searchRef = useRef<HTMLInputElement>(null)
  const gotoRef = useRef<HTMLInputElement>(null)
  const [hit, setHit] = useState<Hit | null>(null)
  const [reveal, setReveal] = useState<Reveal | null>(null)
  const panels = usePanelGroup()
  // Going to a card, a search hit or the search box closes the panel open over the timeline.
  const panelsRef = useRef(panels)
  panelsRef.current = panels
  const closeSheet = useCallback(() => {
    const p = panelsRef.current
    if (!p.beside && p.open) p.setOpen('')
  }, [])

  const live = watching && liveStatus === 'running' && !replay
  const canResume = !live && !replay && status === 'ready' && liveStatus !== 'finished' && !sample && hasEvents
  const canFork = !replay && status === 'ready' && hasModelTurns && !sample
  const pending = live ? pendingApproval : null
  const showApproval = pending !== null && approvalLater !== pending.approval_id
  const onPin = useCallback((index: number) => void run.pinMessage(index), [run])
  const asked = useRunState((s) => s.pinsAsked)
  const pins: Pins = useMemo(() => ({ live, pinned, asked, onPin }), [live, pinned, asked, onPin])
  // Following a live run, what is not its cards (the meta row, the events'
  // count, the budget chart, and the inspector on the last iteration) is
  // drawn again twice a second rather than at each event, all in the same
  // draw, from one lagging snapshot of the run: each redrawn at every event
  // cost each page more script and paint than the new card did (bench/ui.sh).
  const following = live && selected === null
  const lagging = useLaggedStore(run, 500, live)
  const figures = shownView(lagging)
  const figuresEvents = lagging.events
  const laggedIndex = useRef(createContextIndex())
  const laggedContexts = following ? laggedIndex.current.update(figuresEvents) : null
  // A chosen iteration, and the run when not live, show at once.
  const liveIndex = useRef(createContextIndex())
  const shownIt = useRunState((s) => (following ? undefined : shownIteration(s)))
  const liveContexts = useRunState((s) => (following ? null : liveIndex.current.update(s.events)))
  const inspectedIt = following ? figures.iterations.at(-1) : shownIt
  const inspectedContexts = laggedContexts ?? liveContexts ?? noContexts
  // The run's cost as its events priced it (backend/price); "—" without a price.
  const costIndex = useRef(createCostIndex())
  const cost = useMemo(() => (replay ? runCost(figuresEvents.slice(0, replay.shown)) : costIndex.current.update(figuresEvents)), [figuresEvents, replay])

  const onSelect = useCallback((n: number) => run.select(n), [run])
  const onFork = useCallback((n: number) => setDialog({ kind: 'fork', n }), [])
  const onArtifact = useCallback((call: CallView) => setDialog({ kind: 'artifact', call }), [])
  // The header's handlers keep their identity, so the memoised controls are drawn again only when what they show changes.
  const onEdit = useCallback(() => setDialog({ kind: 'edit' }), [])
  const onForkSelected = useCallback(() => {
    const s = run.get()
    setDialog({ kind: 'fork', n: s.selected && s.selected > 0 ? s.selected : (modelIterations(s.view).at(-1)?.n ?? 1) })
  }, [run])
  const onApproval = useCallback(() => setApprovalLater(''), [])
  const onHelp = useCallback(() => setDialog({ kind: 'help' }), [])
  // goTo selects the card nearest iteration n and brings its header into view.
  const goTo = useCallback(
    (n: number) => {
      const to = nearest(run.shown().iterations.map((it) => it.n), n)
      if (to === null) return
      closeSheet()
      setTab('timeline')
      run.select(to)
      setReveal({ n: to, key: performance.now() })
    },
    [run, closeSheet],
  )
  const onHit = useCallback(
    (h: Hit | null) => {
      setHit(h)
      if (!h) return
      closeSheet()
      setTab('timeline')
      run.select(h.n)
      setReveal({ n: h.n, key: performance.now() })
    },
    [run, closeSheet],
  )
  const endpoint = useMemo(() => ({ model, baseUrl, tools }), [model, baseUrl, tools])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null
      const inField = !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable)
      const action = shortcutFor({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField })
      if (!action || (dialog && action !== 'close') || (showApproval && action !== 'close')) return
      const s = run.get()
      const isLive = s.watching && s.view.status === 'running' && !s.replay
      switch (action) {
        case 'toggle_pause':
          if (s.replay?.playing) run.pauseReplay()
          else if (s.replay) run.play()
          else if (isLive) void (s.view.paused ? run.resume() : run.pause())
          break
        case 'next_iteration':
          run.selectStep(1)
          break
        case 'prev_iteration':
          run.selectStep(-1)
          break
        case 'inject':
          if (!isLive) return
          injectRef.current?.focus()
          break
        case 'stop':
          if (isLive) void run.stop()
          break
        case 'replay':
          if (s.replay) run.stopReplay()
          else if (!isLive) run.startReplay()
          break
        case 'replay_play':
          if (s.replay?.playing) run.pauseReplay()
          else if (s.replay) run.play()
          break
        case 'replay_next':
          if (s.replay && e.shiftKey) run.stepIteration(1)
          else if (s.replay) run.stepEvent(1)
          break
        case 'replay_prev':
          if (s.replay && e.shiftKey) run.stepIteration(-1)
          else if (s.replay) run.stepEvent(-1)
          break
        case 'search':
          closeSheet()
          searchRef.current?.focus()
          searchRef.current?.select()
          break
        case 'goto':
          closeSheet()
          gotoRef.current?.focus()
          gotoRef.current?.select()
          break
        case 'first_iteration':
        case 'last_iteration': {
          const ns = run.shown().iterations.map((it) => it.n)
          if (ns.length > 0) goTo(action === 'first_iteration' ? ns[0] : ns[ns.length - 1])
          break
        }
        case 'help':
          setDialog({ kind: 'help' })
          break
        case 'close':
          if (el && inField) el.blur()
          else if (!panelsRef.current.beside && panelsRef.current.open) closeSheet()
          else run.select(null)
          break
      }
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [run, dialog, showApproval, goTo, closeSheet])

  const title = summaryTitle || task

  return (
    <section className="page run-page" data-testid="run-page" data-run-id={runId}>
      {status !== 'ready' && (
        <div className="run-top">
          <a className="back" href={runsHref} data-testid="run-back">
            ← {t('run.back')}
          </a>
          {status === 'loading' && <p className="muted">{t('run.loading')}</p>}
          {status === 'error' && error && (
            <div className="notice notice-error" role="alert" data-testid="run-error">
              {t('run.error', { error: error.messageIn(lang) })}
            </div>
          )}
        </div>
      )}
      {status === 'ready' && (
        <>
          <header className="run-head">
            {/* The way back shares the title's row, so the timeline keeps the height. */}
            <a className="back" href={runsHref} data-testid="run-back">
              ← {t('run.back')}
            </a>
            <h1 className="run-task" data-testid="run-title" title={title && title !== task ? `${title}\n${task}` : task}>
              {title || t('runs.untitled')}
            </h1>
            <RunStatusBadge live={live} />
            <SandboxBadge sandbox={sandbox} />
            {sample && <span className="tag">{t('runs.sample')}</span>}
            <span className="spacer" />
            <Controls
              paused={paused}
              awaitingApproval={awaitingApproval}
              hasEvents={hasEvents}
              live={live}
              canResume={canResume}
              canFork={canFork}
              injectRef={injectRef}
              onEdit={onEdit}
              onFork={onForkSelected}
              onApproval={onApproval}
              onHelp={onHelp}
            />
          </header>
          <RunFigures view={figures} cost={cost} forks={forks} />
          {!live && !replay && !sample && hasEvents && <RunLabelBar runId={runId} />}
          {actionError && (
            <div className="notice notice-error" role="alert" data-testid="action-error">
              {actionError.messageIn(lang)}
            </div>
          )}
          {replay && <ReplayBar />}
          <div className="run-main">
            {/* The panels' headers stand above the timeline, the one opened over it; or they sit beside it on a wide window (run.css). */}
            <PanelGroupContext.Provider value={panels}>
              <aside className="run-panels" data-testid="run-panels">
                {!replay && !live && <Outcome />}
                <PlanPanel plan={plan} live={live && !replay} />
                {figures.iterations.some((it) => it.context) && <BudgetPanel view={figures} onSelect={goTo} />}
              </aside>
            </PanelGroupContext.Provider>
            <div className="timeline-col">
              <div className="view-tabs" role="tablist">
                <button type="button" role="tab" aria-selected={tab === 'timeline'} className={tab === 'timeline' ? 'active' : ''} onClick={() => setTab('timeline')} data-testid="tab-timeline">
                  {t('run.timeline')}
                </button>
                <button type="button" role="tab" aria-selected={tab === 'events'} className={tab === 'events' ? 'active' : ''} onClick={() => setTab('events')} data-testid="tab-events-list">
                  {t('run.events')} <span className="muted">{t('run.events_count', { count: replay?.shown ?? figuresEvents.length })}</span>
                </button>
                <button type="button" role="tab" aria-selected={tab === 'waterfall'} className={tab === 'waterfall' ? 'active' : ''} onClick={() => setTab('waterfall')} data-testid="tab-waterfall">
                  {t('wf.tab')}
                </button>
              </div>
              <RunSearch inputRef={searchRef} gotoRef={gotoRef} onHit={onHit} onGoto={goTo} />
              {tab === 'timeline' ? (
                <RunTimeline
                  selected={selected}
                  live={live}
                  onSelect={onSelect}
                  onFork={onFork}
                  onArtifact={onArtifact}
                  pins={pins}
                  hit={hit}
                  reveal={reveal}
                />
              ) : (
                <RunEvents waterfall={tab === 'waterfall'} selected={selected} onSelect={goTo} />
              )}
            </div>
            <Inspector it={inspectedIt} contexts={inspectedContexts} pins={pins} endpoint={endpoint} />
          </div>
        </>
      )}
      {pending && showApproval && <ApprovalDialog key={pending.approval_id} pending={pending} onLater={() => setApprovalLater(pending.approval_id ?? '')} />}
      {dialog?.kind === 'edit' && paused && <RunEditDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'fork' && <RunForkDialog n={dialog.n} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'artifact' && <ArtifactDialog runId={runId} call={dialog.call} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'help' && <HelpOverlay onClose={() => setDialog(null)} />}
    </section>
  )
}

/** shownView is the view on screen: the replay's when replaying, else the live one. */
export function shownView(s: Pick<RunState, 'view' | 'replay'>): RunView {
  return s.replay?.view ?? s.view
}

/** shownIteration is the iteration the inspector shows: the one selected, else the last. */
export function shownIteration(s: Pick<RunState, 'view' | 'replay' | 'selected'>): IterationView | undefined {
  const view = shownView(s)
  return (s.selected === null ? undefined : view.iterations.find((it) => it.n === s.selected)) ?? view.iterations.at(-1)
}

const noContexts = new Map<number, RequestContext>()

type RunTimelineProps = Omit<Parameters<typeof Timeline>[0], 'iterations' | 'resultIndexes'>

/**
 * RunTimeline is the run's cards, and the one part of the page that follows
 * each fold of a live run: it subscribes to the cards and the requests
 * itself, and its other props keep their identity, so the page around it is
 * not drawn again for an event.
 */
const RunTimeline = memo(function RunTimeline(props: RunTimelineProps) {
  const t = useT()
  const iterations = useRunState((s) => shownView(s).iterations)
  // The requests rebuilt from the log, read once per event however long the
  // run grows; they number the messages a person may pin.
  const contextIndex = useRef(createContextIndex())
  const contexts = useRunState((s) => contextIndex.current.update(s.events))
  const resultIndex = useRef(createResultIndex())
  const resultIndexes = resultIndex.current.update(contexts)
  if (iterations.length === 0) return <p className="muted">{t('run.no_events')}</p>
  return <Timeline {...props} iterations={iterations} resultIndexes={resultIndexes} />
})

/** RunEvents is the events' list or their waterfall, up to the replay's point when replaying. */
function RunEvents({ waterfall, selected, onSelect }: { waterfall: boolean; selected: number | null; onSelect: (n: number) => void }) {
  const all = useRunState((s) => s.events)
  const shown = useRunState((s) => s.replay?.shown ?? null)
  const events = useMemo(() => (shown === null ? all : all.slice(0, shown)), [all, shown])
  return waterfall ? <Waterfall events={events} selected={selected} onSelect={onSelect} /> : <EventList events={events} />
}

function RunEditDialog({ onClose }: { onClose: () => void }) {
  const view = useRunState((s) => s.view)
  if (!view.paused) return null
  return <EditDialog task={view.task} instructions={view.instructions} pending={view.paused.at === 'decided' ? view.paused.pendingCalls : []} onClose={onClose} />
}

function RunForkDialog({ n, onClose }: { n: number; onClose: () => void }) {
  const view = useRunState((s) => s.view)
  return <ForkDialog n={n} max={modelIterations(view).at(-1)?.n ?? 1} view={view} onClose={onClose} />
}

/** BudgetPanel is the context budget chart, its peak in its header (worked out again only when the chart's series may have changed). */
function BudgetPanel({ view, onSelect }: { view: RunView; onSelect: (n: number) => void }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const key = budgetKey(view)
  const [peak, windowTokens] = useMemo(() => {
    const points = budgetSeries(view)
    return [points.reduce((m, p) => Math.max(m, p.total), 0), points.reduce((m, p) => Math.max(m, p.window), 0)]
  }, [key]) // eslint-disable-line react-hooks/exhaustive-deps -- the series changes only when budgetKey does, not with each new view
  return (
    <Panel id="budget" className="budget-panel" name={t('chart.title')} title={t('chart.title')} summary={t('chart.peak', { peak: formatTokens(peak, lang), window: formatTokens(windowTokens, lang) })}>
      <BudgetChart view={view} onSelect={onSelect} />
    </Panel>
  )
}

/** Outcome is the answer of a finished run, or where a stopped one stood (Resume is in the header); not drawn while the run is live. */
function Outcome() {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const view = useRunState((s) => s.view)
  const its = modelIterations(view)
  const lastIt = its.at(-1)
  const lastCall = lastIt?.calls.at(-1)
  if (view.answer) {
    return (
      <Panel
        id="answer"
        className="answer"
        testId="run-answer"
        name={t('run.answer')}
        title={t('run.answer')}
        summary={firstLine(view.answer, 200)}
        actions={<CopyButton text={view.answer} title={t('copy.answer')} testId="copy-answer" />}
      >
        <Markdown text={view.answer} testId="answer-text" />
        {!view.verified && (
          <p className="warn" data-testid="run-unverified">
            {view.unverifiedReason ? t('run.unverified_because', { reason: view.unverifiedReason }) : t('run.unverified')}
          </p>
        )}
        {(view.bestEffort || view.confidence > 0) && (
          <p data-testid="run-confidence">
            {view.bestEffort && (
              <span className="tag warn" data-testid="best-effort" title={t('run.best_effort_hint')}>
                {t('run.best_effort')}
              </span>
            )}
            {view.confidence > 0 && (
              <span>
                {t('run.confidence', { value: formatPercent(view.confidence, lang) })}
                {view.confidenceReason && <span className="muted"> — {view.confidenceReason}</span>}
              </span>
            )}
          </p>
        )}
      </Panel>
    )
  }
  if (view.status === 'running' || view.status === 'finished') return null
  const where = t('outcome.where', { n: lastIt?.n ?? 0, calls: view.toolCalls, tokens: formatTokens(view.tokens, lang) })
  return (
    <Panel
      id="outcome"
      className={`outcome outcome-${view.status}`}
      testId="run-outcome"
      attrs={{ 'data-status': view.status }}
      name={t('panel.outcome')}
      title={t('panel.outcome')}
      summary={view.error ? `${view.error} · ${where}` : where}
    >
      <p>
        <b>{where}</b>{' '}
        {view.error && <span>{view.error}</span>}
      </p>
      {lastCall && <p className="muted">{t('outcome.last_call', { name: lastCall.name, status: t(`call.status.${lastCall.status}`) })}</p>}
      {!lastCall && lastIt?.thought && <p className="muted">{t('outcome.last_thought', { text: lastIt.thought.slice(0, 200) })}</p>}
    </Panel>
  )
}

/** iterationCount is how many model turns the run has had, without going through its cards: the start card is the first when there is one. */
export function iterationCount(view: RunView): number {
  return view.iterations.length - (view.iterations[0]?.n === 0 ? 1 : 0)
}

/**
 * RunFigures is the run's meta row: its model, workspace, times, counts and
 * cost. Memoised: a live run gives it a view twice a second (RunPage), its
 * count of iterations too. Followed at each fold, that one number far above
 * the timeline made each new card's frame repaint the page from the meta
 * row down to the card, not the timeline alone.
 */
const RunFigures = memo(function RunFigures({ view, cost, forks }: { view: RunView; cost: Priced; forks: string[] }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const iterations = iterationCount(view)
  const started = parseTime(view.started)
  const ended = parseTime(view.ended)
  const stages = stageTokenList(view.stageTokens)
  return (
    <div className="run-meta" data-testid="run-meta">
      <Meta label={t('run.model')} value={view.model || '–'} />
      <Meta label={t('run.workspace')} value={view.workspace || '–'} />
      {view.origin && <Meta label={t('run.origin')} value={askedBy(view.askedBy) || view.origin} testId="run-origin" />}
      <Meta label={t('run.started')} value={formatDateTime(view.started, lang)} />
      <Meta label={t('run.duration')} value={started && ended ? formatDuration(ended.getTime() - started.getTime()) : '–'} />
      <Meta label={t('run.iterations')} value={formatCount(iterations, lang)} testId="run-iterations" />
      <Meta label={t('run.tokens')} value={formatTokens(view.tokens, lang)} testId="run-tokens" />
      {stages.length > 0 && (
        <Meta
          label={t('run.stage_tokens')}
          title={t('run.stage_tokens.title')}
          value={stages
            .map((s) => `${t(`stage.${s.stage}`)} ${formatTokens(s.tokens, lang)}`)
            .join(' · ')}
          testId="run-stage-tokens"
        />
      )}
      <Meta label={t('run.tool_calls')} value={formatCount(view.toolCalls, lang)} />
      <Meta label={t('runs.col.cost')} value={formatCost(cost)} title={cost.cost === undefined ? t('cost.none') : undefined} testId="run-cost" />
      {view.forkedFrom && (
        <div className="meta">
          <dt>{t('run.forked_from')}</dt>
          <dd>
            <a href={runHref(view.forkedFrom.run_id ?? '')} data-testid="run-forked-from">
              {view.forkedFrom.run_id} #{view.forkedFrom.iteration}
            </a>
          </dd>
        </div>
      )}
      {forks.length > 0 && (
        <div className="meta">
          <dt>{t('run.forks')}</dt>
          <dd data-testid="run-forks">
            {forks.map((id) => (
              <a key={id} href={runHref(id)} data-testid="run-fork-link">
                {id}
              </a>
            ))}
          </dd>
        </div>
      )}
    </div>
  )
})

// Memoised on its texts: the row drawn again for a new iteration's count leaves the others as they were.
const Meta = memo(function Meta({ label, value, testId, title }: { label: string; value: string; testId?: string; title?: string }) {
  // Each value is whole (run.css wraps the row); a fact's title says more where it has one.
  return (
    <div className="meta" title={title}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  )
})
