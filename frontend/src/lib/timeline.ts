import type {
  ApprovalRequestedData,
  ApprovalResolvedData,
  Asker,
  ContextBuiltData,
  ContextPinnedData,
  DecidedCall,
  ForkRef,
  GuardTrippedData,
  HermesEvent,
  ModelDecidedData,
  RunFinishedData,
  RunPausedData,
  RunResumedData,
  RunStartedData,
  SandboxData,
  SummaryUpdatedData,
  TaskEditedData,
} from '../api/types'
import { applyToIteration, newIteration, obj, type IterationView } from './iteration'
import { emptyPlanState, foldPlan, type PlanState } from './plan'
import { addStageTokens, usageTotal } from './stagetokens'

export type { CallView, CallStatus, ContextInfo, Decision, IterationView, Item, Mark } from './iteration'

// A run's view is a pure fold of its events (docs/events.md): replaying a log
// through applyEvent draws what the live run drew. Views are immutable, so a
// store can hand them to React as they are, and a replay can keep the view
// of any seq.

export interface PauseState {
  /** "boundary" between iterations, or "decided": after a decision, before its calls ran. */
  at: string
  pendingCalls: DecidedCall[]
  iteration: number
}

export interface PendingApproval extends ApprovalRequestedData {
  iteration: number
}

export interface RunView {
  runId: string
  task: string
  instructions: string
  /** The model and endpoint (masked) the run last ran with: run.started's, or a later resume's. */
  model: string
  baseUrl: string
  workspace: string
  tools: string[]
  maxIterations: number
  forkedFrom: ForkRef | null
  /** who asked, when not the person at this machine (the bot's chat user) */
  origin: string
  /** that chat user's name and departments, when the contacts could say */
  askedBy: Asker | null
  /** How the run's commands are confined; null in a run logged before there was a sandbox. */
  sandbox: SandboxData | null
  started?: string
  ended?: string
  status: string
  answer: string
  verified: boolean
  /** Why the answer is unverified, as the guard said when the run gave it; "" when it said nothing. */
  unverifiedReason: string
  error: string
  iterations: IterationView[]
  tokens: number
  /** The tokens each stage spent (route, plan, decide, evaluate, answer, summary). */
  stageTokens: Record<string, number>
  promptTokens: number
  completionTokens: number
  toolCalls: number
  /** The context window of the model, from the latest context.built. */
  window: number
  paused: PauseState | null
  pendingApproval: PendingApproval | null
  /** What a person pinned into the anchor: facts, and messages by their conversation index. */
  pinnedFacts: string[]
  pinnedMessages: number[]
  /** Route, plan, questions and completion check (the plan strategy). */
  plan: PlanState
  /** The answer never passed the completion check: the best the run had when it reached a limit. */
  bestEffort: boolean
  /** The model's confidence in its finished answer, 0 when it gave none. */
  confidence: number
  confidenceReason: string
  lastSeq: number
  eventCount: number
}

export function emptyRun(runId = ''): RunView {
  return {
    runId,
    task: '',
    instructions: '',
    model: '',
    baseUrl: '',
    workspace: '',
    tools: [],
    maxIterations: 0,
    forkedFrom: null,
    origin: '',
    askedBy: null,
    sandbox: null,
    status: 'running',
    answer: '',
    verified: false,
    unverifiedReason: '',
    error: '',
    iterations: [],
    tokens: 0,
    stageTokens: {},
    promptTokens: 0,
    completionTokens: 0,
    toolCalls: 0,
    window: 0,
    paused: null,
    pendingApproval: null,
    pinnedFacts: [],
    pinnedMessages: [],
    plan: emptyPlanState,
    bestEffort: false,
    confidence: 0,
    confidenceReason: '',
    lastSeq: 0,
    eventCount: 0,
  }
}

/**
 * applyEvent folds one event into view. An event at or below the last seq
 * seen is a repeat (a late viewer's overlap) and leaves view unchanged; a
 * store that may get events out of order merges them and folds again.
 */
export function applyEvent(view: RunView, e: HermesEvent): RunView {
  return applyEvents(view, [e])
}

/**
 * applyEvents folds a batch of events that come after view, in seq order.
 * The list of cards is copied once per batch, not once per event, so a log
 * of ten thousand events folds in one pass.
 */
export function applyEvents(view: RunView, events: readonly HermesEvent[]): RunView {
  let next: RunView | null = null
  let iterations: IterationView[] = view.iterations
  for (const e of events) {
    const prev: RunView = next ?? view
    if (e.seq <= prev.lastSeq) continue
    if (!next) {
      next = { ...view }
      iterations = view.iterations.slice()
    }
    next.runId = next.runId || e.run_id
    next.lastSeq = e.seq
    next.eventCount++
    foldIntoIterations(iterations, e)
    foldIntoRun(next, e)
  }
  if (!next) return view
  next.iterations = iterations
  return next
}

// foldIntoIterations replaces, in the batch's own list, the card of
// e.iteration by e folded into it, creating the card (in order) when new.
function foldIntoIterations(list: IterationView[], e: HermesEvent): void {
  let i = list.length - 1
  if (i < 0 || list[i].n !== e.iteration) i = list.findIndex((it) => it.n === e.iteration)
  if (i >= 0) {
    list[i] = applyToIteration(list[i], e)
    return
  }
  list.push(applyToIteration(newIteration(e.iteration, e.time), e))
  if (list.length > 1 && list[list.length - 2].n > e.iteration) list.sort((a, b) => a.n - b.n)
}

// foldIntoRun updates the run-level fields of next, a copy owned by the batch.
function foldIntoRun(next: RunView, e: HermesEvent): void {
  next.plan = foldPlan(next.plan, e)
  next.stageTokens = addStageTokens(next.stageTokens, e)
  switch (e.type) {
    case 'run.started': {
      const d = obj<RunStartedData>(e.data)
      next.task = d.task ?? ''
      next.instructions = d.instructions ?? ''
      next.model = d.model ?? ''
      next.baseUrl = d.base_url ?? ''
      next.workspace = d.workspace ?? ''
      next.tools = d.tools ?? []
      next.maxIterations = d.max_iterations ?? 0
      next.forkedFrom = d.forked_from ?? null
      next.origin = d.origin ?? ''
      next.askedBy = d.asked_by ?? null
      next.sandbox = d.sandbox ?? null
      next.started = next.started ?? e.time
      next.status = 'running'
      break
    }
    case 'context.built':
      next.window = obj<ContextBuiltData>(e.data).window ?? next.window
      break
    case 'context.pinned': {
      const d = obj<ContextPinnedData>(e.data)
      if (d.fact) next.pinnedFacts = [...next.pinnedFacts, d.fact]
      if (d.message !== undefined && !next.pinnedMessages.includes(d.message)) next.pinnedMessages = [...next.pinnedMessages, d.message]
      break
    }
    case 'run.paused': {
      const d = obj<RunPausedData>(e.data)
      next.paused = { at: d.at ?? 'boundary', pendingCalls: d.pending_calls ?? [], iteration: e.iteration }
      break
    }
    case 'run.resumed': {
      const d = obj<RunResumedData>(e.data)
      if (d.model) {
        next.model = d.model
        next.baseUrl = d.base_url ?? ''
      }
      next.status = 'running'
      next.paused = null
      next.ended = undefined
      break
    }
    case 'approval.requested':
      next.pendingApproval = { ...obj<ApprovalRequestedData>(e.data), iteration: e.iteration }
      break
    case 'approval.resolved':
      if (next.pendingApproval?.approval_id === obj<ApprovalResolvedData>(e.data).approval_id) next.pendingApproval = null
      break
    case 'task.edited': {
      const d = obj<TaskEditedData>(e.data)
      next.task = d.new_task || next.task
      // Both are left out when the instructions were and stay empty.
      if (d.new_instructions !== undefined || d.old_instructions !== undefined) next.instructions = d.new_instructions ?? ''
      break
    }
    case 'model.decided': {
      const d = obj<ModelDecidedData>(e.data)
      // An endpoint that reports no total counts prompt and completion, as the run's totals do.
      next.tokens += usageTotal(d.usage)
      next.promptTokens += d.usage?.prompt_tokens ?? 0
      next.completionTokens += d.usage?.completion_tokens ?? 0
      next.toolCalls += d.tool_calls?.length ?? 0
      // A guard on an earlier answer (one more turn to check it) is not why this one is unverified.
      next.unverifiedReason = ''
      break
    }
    case 'guard.tripped': {
      const d = obj<GuardTrippedData>(e.data)
      if (d.guard === 'unverified_answer') next.unverifiedReason = d.message ?? ''
      break
    }
    case 'summary.updated': {
      // A compression's summary call is paid for like a decision, as the Go fold counts it.
      const u = obj<SummaryUpdatedData>(e.data).usage
      next.tokens += usageTotal(u)
      next.promptTokens += u?.prompt_tokens ?? 0
      next.completionTokens += u?.completion_tokens ?? 0
      break
    }
    case 'run.finished': {
      const d = obj<RunFinishedData>(e.data)
      next.status = d.status ?? 'finished'
      next.answer = d.answer ?? ''
      next.verified = d.verified ?? false
      next.error = d.error ?? ''
      next.bestEffort = d.best_effort ?? false
      next.confidence = d.confidence ?? 0
      next.confidenceReason = d.confidence_reason ?? ''
      next.ended = e.time
      next.paused = null
      next.pendingApproval = null
      // Logs whose decisions carry no usage still have the totals.
      next.tokens = Math.max(next.tokens, d.totals?.total_tokens ?? 0)
      break
    }
  }
}

/** foldRun folds a whole log. Events may come in any order; repeats count once. */
export function foldRun(events: readonly HermesEvent[], runId = ''): RunView {
  const ordered = events.every((e, i) => i === 0 || e.seq > events[i - 1].seq)
  return applyEvents(emptyRun(runId), ordered ? events : [...events].sort((a, b) => a.seq - b.seq))
}

/** modelIterations are the cards of model turns (iteration 0 holds the run's start). */
export function modelIterations(view: RunView): IterationView[] {
  return view.iterations.filter((it) => it.n > 0)
}
