import type {
  ContextBuiltData,
  GuardTrippedData,
  HermesEvent,
  ModelDecidedData,
  RunFinishedData,
  RunStartedData,
  TaskEditedData,
  ToolFinishedData,
} from '../api/types'

// A run's view is a pure fold of its events (DESIGN.md): replaying a log
// through applyEvent draws what the live run drew. Views are immutable, so a
// store can hand them to React as they are.

export interface IterationView {
  n: number
  started?: string
  ended?: string
  /** Seqs of this iteration's events, in order; the events live in the run's list. */
  seqs: number[]
  contextTokens: number
  window: number
  compressed: boolean
  tokensIn: number
  tokensOut: number
  /** Text streamed by the model; replaced by the decision's thought when it arrives. */
  streamed: string
  thought: string
  answer: string
  toolCalls: number
  failedCalls: number
  guards: GuardTrippedData[]
}

export interface RunView {
  runId: string
  task: string
  model: string
  workspace: string
  started?: string
  ended?: string
  status: string
  answer: string
  verified: boolean
  error: string
  iterations: IterationView[]
  tokens: number
  toolCalls: number
  lastSeq: number
  eventCount: number
}

export function emptyRun(runId = ''): RunView {
  return {
    runId,
    task: '',
    model: '',
    workspace: '',
    status: 'running',
    answer: '',
    verified: false,
    error: '',
    iterations: [],
    tokens: 0,
    toolCalls: 0,
    lastSeq: 0,
    eventCount: 0,
  }
}

function newIteration(n: number, time: string): IterationView {
  return {
    n,
    started: time,
    seqs: [],
    contextTokens: 0,
    window: 0,
    compressed: false,
    tokensIn: 0,
    tokensOut: 0,
    streamed: '',
    thought: '',
    answer: '',
    toolCalls: 0,
    failedCalls: 0,
    guards: [],
  }
}

const obj = <T>(data: unknown): T => (data && typeof data === 'object' ? (data as T) : ({} as T))

/**
 * applyEvent folds one event into view. An event at or below the last seq
 * seen is a repeat (a late viewer's overlap) and leaves view unchanged.
 */
export function applyEvent(view: RunView, e: HermesEvent): RunView {
  if (e.seq <= view.lastSeq) return view
  const next: RunView = { ...view, runId: view.runId || e.run_id, lastSeq: e.seq, eventCount: view.eventCount + 1 }
  if (e.iteration > 0) {
    next.iterations = withIteration(view.iterations, e, (it) => applyToIteration(it, e))
  }
  switch (e.type) {
    case 'run.started': {
      const d = obj<RunStartedData>(e.data)
      next.task = d.task ?? ''
      next.model = d.model ?? ''
      next.workspace = d.workspace ?? ''
      next.started = next.started ?? e.time
      next.status = 'running'
      break
    }
    case 'run.resumed':
      next.status = 'running'
      next.ended = undefined
      break
    case 'task.edited':
      next.task = obj<TaskEditedData>(e.data).new_task ?? next.task
      break
    case 'model.decided': {
      const d = obj<ModelDecidedData>(e.data)
      next.tokens += d.usage?.total_tokens ?? 0
      next.toolCalls += d.tool_calls?.length ?? 0
      break
    }
    case 'run.finished': {
      const d = obj<RunFinishedData>(e.data)
      next.status = d.status ?? 'finished'
      next.answer = d.answer ?? ''
      next.verified = d.verified ?? false
      next.error = d.error ?? ''
      next.ended = e.time
      // Logs whose decisions carry no usage still have the totals.
      next.tokens = Math.max(next.tokens, d.totals?.total_tokens ?? 0)
      break
    }
  }
  return next
}

// withIteration returns iterations with the one numbered e.iteration replaced
// by fn of it, creating it (and keeping the list sorted) when it is new.
function withIteration(list: IterationView[], e: HermesEvent, fn: (it: IterationView) => IterationView): IterationView[] {
  const last = list.length - 1
  if (last >= 0 && list[last].n === e.iteration) {
    const copy = list.slice()
    copy[last] = fn(list[last])
    return copy
  }
  const i = list.findIndex((it) => it.n === e.iteration)
  if (i >= 0) {
    const copy = list.slice()
    copy[i] = fn(list[i])
    return copy
  }
  return [...list, fn(newIteration(e.iteration, e.time))].sort((a, b) => a.n - b.n)
}

function applyToIteration(prev: IterationView, e: HermesEvent): IterationView {
  const it: IterationView = { ...prev, seqs: [...prev.seqs, e.seq], ended: e.time }
  switch (e.type) {
    case 'context.built': {
      const d = obj<ContextBuiltData>(e.data)
      it.contextTokens = d.tokens ?? 0
      it.window = d.window ?? 0
      it.compressed = d.compressed ?? false
      break
    }
    case 'model.delta':
      it.streamed += obj<{ text?: string }>(e.data).text ?? ''
      break
    case 'model.decided': {
      const d = obj<ModelDecidedData>(e.data)
      it.tokensIn += d.usage?.prompt_tokens ?? 0
      it.tokensOut += d.usage?.completion_tokens ?? 0
      it.thought = d.thought ?? it.streamed
      it.answer = d.final_answer ?? ''
      it.toolCalls += d.tool_calls?.length ?? 0
      break
    }
    case 'tool.finished':
      if (!obj<ToolFinishedData>(e.data).ok) it.failedCalls++
      break
    case 'guard.tripped':
      it.guards = [...it.guards, obj<GuardTrippedData>(e.data)]
      break
  }
  return it
}

/** foldRun folds a whole log. Events may come in any order; repeats count once. */
export function foldRun(events: readonly HermesEvent[], runId = ''): RunView {
  const sorted = [...events].sort((a, b) => a.seq - b.seq)
  let view = emptyRun(runId)
  for (const e of sorted) view = applyEvent(view, e)
  return view
}
