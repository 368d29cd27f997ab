import type {
  CompletionCheckedData,
  HermesEvent,
  PlanCreatedData,
  PlanDiff,
  PlanRevisedData,
  PlanStep,
  QuestionAnsweredData,
  QuestionAskedData,
  RouteDecidedData,
  StepEvaluatedData,
} from '../api/types'

// The plan strategy's side of a run (docs/api.md, "Plans, checks and
// questions"): the stage of each event, the plan as a checklist, its
// revisions, the questions asked of a person and the completion checks.
// Pure functions of events, folded by timeline.ts like everything else.

export const stages = ['intake', 'planning', 'deciding', 'acting', 'evaluating', 'memory', 'completion'] as const
export type Stage = (typeof stages)[number]

// The types that occur in one stage only say it by their type; the others
// carry a stage field.
const stageByType: Record<string, Stage> = {
  'route.decided': 'intake',
  'plan.created': 'planning',
  'plan.revised': 'planning',
  'tool.started': 'acting',
  'tool.finished': 'acting',
  'approval.requested': 'acting',
  'approval.resolved': 'acting',
  'step.evaluated': 'evaluating',
  'question.asked': 'deciding',
  'question.answered': 'deciding',
  'memory.recalled': 'memory',
  'memory.written': 'memory',
  'completion.checked': 'completion',
  'run.finished': 'completion',
}

/** stageOf is the stage e belongs to, or "" for events outside the stages (run.started, pauses, controls). */
export function stageOf(e: HermesEvent): Stage | '' {
  const own = (e.data as { stage?: unknown } | null)?.stage
  if (typeof own === 'string' && (stages as readonly string[]).includes(own)) return own as Stage
  return stageByType[e.type] ?? ''
}

export interface Revision {
  seq: number
  iteration: number
  reason: string
  diff: PlanDiff
}

export interface PlanView {
  steps: PlanStep[]
  assumptions: string[]
  /** Steps left out because no tool could do them. */
  dropped: string[]
  revisions: Revision[]
  /** The id of the step being worked on: the first not passed; 0 when every step passed. */
  current: number
}

export interface QuestionView {
  id: string
  seq: number
  iteration: number
  asked: QuestionAskedData
  /** Set once question.answered closed it. */
  answered: QuestionAnsweredData | null
}

export interface PlanState {
  route: RouteDecidedData | null
  plan: PlanView | null
  questions: QuestionView[]
  /** The latest completion check. */
  completion: CompletionCheckedData | null
}

export const emptyPlanState: PlanState = { route: null, plan: null, questions: [], completion: null }

const obj = <T>(data: unknown): T => (data && typeof data === 'object' ? (data as T) : ({} as T))

/** currentStep is the id of the first step not passed, or 0. */
export function currentStep(steps: readonly Pick<PlanStep, 'id' | 'status'>[]): number {
  return steps.find((s) => s.status !== 'passed')?.id ?? 0
}

function withSteps(plan: PlanView, steps: PlanStep[]): PlanView {
  return { ...plan, steps, current: currentStep(steps) }
}

/** foldPlan returns state with e folded in; events that concern no plan return state itself. */
export function foldPlan(state: PlanState, e: HermesEvent): PlanState {
  switch (e.type) {
    case 'route.decided':
      return { ...state, route: obj<RouteDecidedData>(e.data) }
    case 'plan.created': {
      const d = obj<PlanCreatedData>(e.data)
      const steps = d.steps ?? []
      return { ...state, plan: { steps, assumptions: d.assumptions ?? [], dropped: d.dropped ?? [], revisions: [], current: currentStep(steps) } }
    }
    case 'plan.revised': {
      const d = obj<PlanRevisedData>(e.data)
      const steps = d.steps ?? []
      const before = state.plan ?? { steps: [], assumptions: [], dropped: [], revisions: [], current: 0 }
      const revision: Revision = { seq: e.seq, iteration: e.iteration, reason: d.reason ?? '', diff: d.diff ?? {} }
      return {
        ...state,
        plan: { ...withSteps(before, steps), assumptions: d.assumptions ?? before.assumptions, revisions: [...before.revisions, revision] },
      }
    }
    case 'step.evaluated': {
      const d = obj<StepEvaluatedData>(e.data)
      if (!state.plan) return state
      const steps = state.plan.steps.map((s) => (s.id === d.step ? { ...s, status: d.passed ? 'passed' : 'failed', reason: d.reason ?? '' } : s))
      return { ...state, plan: withSteps(state.plan, steps) }
    }
    case 'question.asked': {
      const d = obj<QuestionAskedData>(e.data)
      const id = d.question_id ?? ''
      return { ...state, questions: [...state.questions.filter((q) => q.id !== id), { id, seq: e.seq, iteration: e.iteration, asked: d, answered: null }] }
    }
    case 'question.answered': {
      const d = obj<QuestionAnsweredData>(e.data)
      return { ...state, questions: state.questions.map((q) => (q.id === d.question_id ? { ...q, answered: d } : q)) }
    }
    case 'completion.checked':
      return { ...state, completion: obj<CompletionCheckedData>(e.data) }
  }
  return state
}

/** openQuestion is the question a person has still to answer, if any. */
export function openQuestion(state: PlanState): QuestionView | null {
  for (let i = state.questions.length - 1; i >= 0; i--) if (!state.questions[i].answered) return state.questions[i]
  return null
}

/**
 * requiredSteps is how many of a plan's required steps a completion check
 * found passed, of how many; null when there were none to check (the run
 * had no plan). The count comes from the steps it names missing, every
 * required step not passed: in logs written before steps_passed counted the
 * required steps only, it counted optional ones too, and read against
 * steps_required it said "3 of 2".
 */
export function requiredSteps(c: Pick<CompletionCheckedData, 'steps_passed' | 'steps_required' | 'missing'>): { passed: number; required: number } | null {
  const required = c.steps_required ?? 0
  if (required <= 0) return null
  return { passed: Math.max(0, required - (c.missing?.length ?? 0)), required }
}
